/**
 * The renderer's Content-Security-Policy (issue 6 "a strict Content-Security-Policy"; Electron security checklist 7).
 * Scripts only from the app itself, no eval, no plugins, no frames, no network: the page talks to main through the
 * preload only, so `connect-src` is 'none'. Styles only from the app's own stylesheet, no 'unsafe-inline' (issue 12):
 * Svelte's CSS is emitted to a file (renderer/vite.config.ts), its `style:` directives and the receipt's @page rule
 * go through the CSSOM, which the policy does not govern, and no template has a style attribute or <style> element.
 * test/e2e/strict-csp.test.ts loads every screen under it and counts no violation.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
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
