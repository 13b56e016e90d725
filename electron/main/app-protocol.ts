import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Protocol } from 'electron';
import { CONTENT_SECURITY_POLICY } from './content-policy.ts';
import { RENDERER_CONTENT_TYPES } from '../core/host/renderer-content-types.ts';

// The renderer is served from a custom protocol, never from a remote origin or file:// (issue 6; Electron security
// checklist 18 "Avoid usage of the file:// protocol and prefer usage of custom protocols").
export const APP_SCHEME = 'kiosk';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The page for a renderer route, e.g. appUrl('#/customer'). */
export function appUrl(hash = ''): string {
  return `${APP_ORIGIN}/index.html${hash}`;
}

/** Whether a URL belongs to the app (scheme and host; Node's URL gives custom schemes no origin to compare). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Registered before `app` is ready: `standard` gives the scheme an origin and relative URLs (the Vite build uses
 * base './'), `secure` makes it a secure context, `corsEnabled` lets Chromium load the page's module scripts, which
 * Vite tags `crossorigin` (CORS-mode fetches are refused for schemes without it). No fetch API, service workers or
 * streaming: the page needs none. Responses carry no Access-Control headers, so no other origin can read them.
 */
export const APP_SCHEME_PRIVILEGES = [{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, corsEnabled: true } }];


const HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/**
 * The file a request maps to, inside `root` (renderer/dist), or null for anything that is not ours or escapes the
 * folder. The renderer is one page: paths that name no file get index.html, as the web shell does.
 */
export async function resolveAppFile(root: string, requestUrl: string): Promise<string | null> {
  if (!isAppUrl(requestUrl)) return null;
  const base = resolve(root);
  let decoded: string;
  try {
    decoded = decodeURIComponent(new URL(requestUrl).pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const file = normalize(join(base, decoded));
  if (file !== base && !file.startsWith(base + sep)) return null;
  const info = await stat(file).catch(() => null);
  return info?.isFile() ? file : join(base, 'index.html');
}

/** Answers one request of the app scheme: the file with the CSP header, or a 404 (never a directory listing). */
export async function answerAppRequest(root: string, request: { url: string; method: string }): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405, headers: HEADERS });
  const file = await resolveAppFile(root, request.url);
  const body = file ? await readFile(file).catch(() => null) : null;
  if (!file || !body) return new Response('Not found', { status: 404, headers: { ...HEADERS, 'content-type': 'text/plain; charset=utf-8' } });
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers: { ...HEADERS, 'content-type': RENDERER_CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' } });
}

/** Serves renderer/dist under kiosk://app/ (call once, after `app` is ready). */
export function serveApp(protocol: Pick<Protocol, 'handle'>, root: string): void {
  protocol.handle(APP_SCHEME, (request) => answerAppRequest(root, request));
}
