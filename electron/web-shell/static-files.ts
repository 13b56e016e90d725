import type { ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { RENDERER_CONTENT_TYPES } from '../core/host/renderer-content-types.ts';
import { refuse } from '../../shared/kiosk-failure.ts';
import { refusal } from './answers.ts';

// issue 12: style-src without 'unsafe-inline', as in the Electron shell (electron/main/content-policy.ts says why it holds).
export const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * The built renderer the web shell serves (renderer/dist), or nothing when it is not built (staticDir null).
 * issue 14 "cold start": read once when the shell starts and served from memory, by absolute path. While the kiosk
 * starts, its event loop runs the embedded platform's and the core's start in blocks of a tenth of a second and more;
 * a file read from disk then waited for a turn of that loop at each of its steps (stat, read, write), one from memory
 * waits for one. The shell serves the renderer it started with: a build made later is served from the next start, as
 * the Electron shell's window does.
 */
export class RendererFiles {
  readonly #root: string | null;
  readonly #files: Map<string, StaticFile>;
  /** index.html's absolute path, null when there is no renderer folder. */
  readonly indexFile: string | null;

  constructor(staticDir: string | null) {
    this.#root = staticDir === null ? null : resolve(staticDir);
    this.#files = this.#root === null ? new Map() : readStaticFiles(this.#root);
    this.indexFile = this.#root === null ? null : join(this.#root, 'index.html');
  }

  /** Whether index.html was read (a page can be served with the first screen's answers). */
  hasIndex(): boolean {
    return this.indexFile !== null && this.#files.has(this.indexFile);
  }

  /**
   * The file a path is served from: itself, or index.html for the single page's routes (its routes, e.g. /customer);
   * `bad_path` when it cannot be decoded, `not_found` outside the renderer's folder or when nothing is there.
   */
  fileOf(pathname: string): { file: string; found: StaticFile } | { error: 'bad_path' | 'not_found' } {
    if (this.#root === null || this.indexFile === null) return { error: 'not_found' };
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return { error: 'bad_path' };
    }
    const file = normalize(join(this.#root, decoded));
    if (file !== this.#root && !file.startsWith(this.#root + sep)) return { error: 'not_found' };
    const own = this.#files.get(file);
    if (own) return { file, found: own };
    const index = this.#files.get(this.indexFile);
    return index ? { file: this.indexFile, found: index } : { error: 'not_found' };
  }

  /** The file for `pathname`: 304 when the browser has it (If-None-Match), a page saying to build when not built. */
  serve(pathname: string, ifNoneMatch: string | undefined, res: ServerResponse): void {
    if (this.#root === null) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
      res.end('<!doctype html><meta charset="utf-8"><title>Kiosk</title><p>The cashier UI is not built yet: run <code>npm run build</code>.</p>');
      return;
    }
    const page = this.fileOf(pathname);
    if ('error' in page) return refusal(res, refuse(page.error));
    const { found } = page;
    if (ifNoneMatch === found.etag) {
      res.writeHead(304, { etag: found.etag, ...PAGE_HEADERS });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length, etag: found.etag, ...PAGE_HEADERS });
    res.end(found.body);
  }
}

function readStaticFiles(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) return files;
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const file = join(root, name);
    if (!statSync(file).isFile()) continue;
    const body = readFileSync(file);
    files.set(file, {
      body,
      type: RENDERER_CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      // A strong validator: a browser that has the file asks with If-None-Match and gets 304 without the body.
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    });
  }
  return files;
}
