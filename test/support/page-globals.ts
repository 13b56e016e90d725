// The functions given to page.evaluate run in the page, but this project typechecks without DOM types (shared/ must not
// see them): the e2e tests declare the few browser globals those functions use in their own file, typed with these
// shapes so the same shape is written once (issue 14). `declare const document: PageDocument;` stays in each file.

export interface PageElement {
  readonly tagName: string;
  readonly id: string;
  readonly textContent: string | null;
  readonly innerText: string;
  readonly dataset: Record<string, string | undefined>;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { width: number; height: number };
  getClientRects(): { length: number };
  closest(selector: string): PageElement | null;
  contains(other: PageElement | null): boolean;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
  blur(): void;
}

export interface PageDocument {
  activeElement: PageElement | null;
  body: PageElement;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
}
