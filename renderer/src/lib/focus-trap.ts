// Modal focus handling (issue 5 "Accessibility"; WAI-ARIA APG "Dialog (Modal)" pattern): while a dialog is open, Tab
// and Shift+Tab cycle through its controls only, Escape closes it, and on close focus goes back to the control that
// opened it, so a keyboard or switch user is never left on <body> or behind the backdrop.

const FOCUSABLE = [
  'button:not([disabled])',
  'a[href]',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The controls Tab can reach inside `container`, in document order (hidden ones left out). */
export function focusablesIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0 && el.closest('[inert]') === null);
}

/** Moves focus to the next (or previous) control inside `container`, wrapping at both ends. */
function cycle(container: HTMLElement, backwards: boolean): void {
  const items = focusablesIn(container);
  if (items.length === 0) {
    container.focus();
    return;
  }
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next = at === -1 ? (backwards ? items.length - 1 : 0) : (at + (backwards ? -1 : 1) + items.length) % items.length;
  items[next]?.focus();
}

export interface FocusTrapOptions {
  /** Escape was pressed while the trap is on; the dialog decides whether it closes (not while its work runs). */
  onEscape: () => void;
  /** Where focus goes on close when the opener is gone (e.g. the Refund button after a full refund). */
  fallback?: () => HTMLElement | null | undefined;
  /** The control that opened the dialog, when focus already moved before the trap starts (native showModal()). */
  opener?: HTMLElement | null;
}

export interface FocusTrap {
  /** Gives focus back (to the opener, else the fallback) and stops listening. */
  release(): void;
}

/**
 * Starts trapping focus in `container`: remembers the focused control (the opener), focuses the first control inside
 * (or `initial`), and handles Tab / Shift+Tab / Escape on the document until `release()`.
 */
export function trapFocus(container: HTMLElement, options: FocusTrapOptions, initial?: HTMLElement | null): FocusTrap {
  const active = document.activeElement;
  const opener = options.opener !== undefined ? options.opener : active instanceof HTMLElement && !container.contains(active) ? active : null;
  const onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Tab') {
      event.preventDefault();
      cycle(container, event.shiftKey);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      options.onEscape();
    }
  };
  document.addEventListener('keydown', onKeydown, true);
  (initial ?? focusablesIn(container)[0] ?? container).focus();
  return {
    release() {
      document.removeEventListener('keydown', onKeydown, true);
      const target = opener?.isConnected ? opener : options.fallback?.();
      target?.focus();
    },
  };
}

/** The same as a Svelte action, for a dialog that exists only while it is open: `use:modalFocus={{ onEscape }}`. */
export function modalFocus(node: HTMLElement, options: FocusTrapOptions): { update(next: FocusTrapOptions): void; destroy(): void } {
  let current = options;
  const trap = trapFocus(node, { onEscape: () => current.onEscape(), fallback: () => current.fallback?.() });
  return {
    update(next) {
      current = next;
    },
    destroy() {
      // After Svelte removes the dialog, so focus is not handed to something about to disappear with it.
      queueMicrotask(() => trap.release());
    },
  };
}
