import type { Session, WebContents } from 'electron';
import type { Logger } from '../core/ports.ts';
import { isAppUrl } from './app-protocol.ts';

export type LockableSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler' | 'setDisplayMediaRequestHandler'> & {
  webRequest: Pick<Session['webRequest'], 'onBeforeRequest'>;
};

/** What the page may load besides the app itself: inline images (the QR code is drawn as data: or SVG). */
const isAllowedRequest = (url: string, devTools: boolean): boolean =>
  isAppUrl(url) || url.startsWith('data:') || (devTools && url.startsWith('devtools://'));

/**
 * The session's side of the lock-down (issue 6; Electron security checklist 5 "Handle session permission requests"
 * and 1 "Only load secure content"): every permission request and check is refused (camera, microphone,
 * notifications, geolocation, HID, USB, serial, screen capture, ...) — the cashier UI needs none; and every request
 * that is not the app's own scheme is cancelled, so nothing remote is ever loaded, whatever a page tries.
 */
export function lockDownSession(session: LockableSession, options: { devTools: boolean; logger: Logger }): void {
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    options.logger.warn('permission request denied', { permission });
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequest(details.url, options.devTools);
    if (!allowed) options.logger.warn('request blocked', { url: details.url.slice(0, 200) });
    callback({ cancel: !allowed });
  });
}

export type LockableContents = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;

/**
 * The page's side (issue 6 "navigation and new windows denied"; checklist 12–14): no navigation away from the app
 * (in-page route changes are not navigations and stay allowed), no redirects, no subframe navigations, no window.open
 * or target=_blank, no <webview>. Applied to every WebContents the app creates (`web-contents-created`), so a window
 * added later cannot forget it.
 */
export function lockDownContents(contents: LockableContents, logger: Logger): void {
  const refuse = (what: string) => (event: { preventDefault(): void; url?: string }, url?: string) => {
    const target = event.url ?? url ?? '';
    if (isAppUrl(target)) return;
    event.preventDefault();
    logger.warn(`${what} denied`, { url: target.slice(0, 200) });
  };
  contents.on('will-navigate', refuse('navigation'));
  contents.on('will-frame-navigate', refuse('frame navigation'));
  contents.on('will-redirect', refuse('redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    logger.warn('webview denied');
  });
  contents.setWindowOpenHandler(({ url }) => {
    logger.warn('new window denied', { url: url.slice(0, 200) });
    return { action: 'deny' };
  });
}
