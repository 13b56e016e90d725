/**
 * Content types of the built renderer's files (renderer/dist), by extension: one table for both shells that serve it,
 * the web shell over HTTP and the Electron shell over its kiosk:// protocol. A file type missing here is not served.
 */
export const RENDERER_CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};
