/**
 * The renderer's Content-Security-Policy (issue 6 "a strict Content-Security-Policy"; Electron security checklist 7).
 * Scripts only from the app itself, no eval, no plugins, no frames, no network: the page talks to main through the
 * preload only, so `connect-src` is 'none'. Inline styles stay allowed because Svelte writes `style` attributes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
