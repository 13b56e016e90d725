// The IPC channel names the preload and the main process agree on. Pure constants: the sandboxed preload bundles this
// file, and main imports it, so neither writes a channel name by hand.

/** One channel per KioskApi method (style guide 3: named intents, no generic invoke the page could aim elsewhere). */
export const methodChannel = (method: string): string => `kiosk:call:${method}`;

/** main → renderer: a KioskEvent. */
export const EVENT_CHANNEL = 'kiosk:event';

/** renderer → main: the page has subscribed, queued events may be sent (style guide 12). */
export const EVENTS_READY_CHANNEL = 'kiosk:events-ready';
