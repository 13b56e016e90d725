import type { IpcMain, IpcMainEvent, WebContents } from 'electron';
import { KIOSK_METHODS, type KioskApi, type KioskEvent, type Result } from '../../shared/kiosk-api.ts';
import { dispatch } from '../core/api-dispatch.ts';
import type { Logger } from '../core/ports.ts';
import { EVENT_CHANNEL, EVENTS_READY_CHANNEL, methodChannel } from '../preload/channels.ts';
import { isTrustedSender, type IpcSenderEvent } from './ipc-sender.ts';
import { refuse } from '../../shared/kiosk-failure.ts';

export type KioskIpcMain = Pick<IpcMain, 'handle' | 'removeHandler' | 'on' | 'removeListener'>;
export type EventTarget = Pick<WebContents, 'id' | 'send' | 'isDestroyed'>;

export interface KioskIpcOptions {
  ipcMain: KioskIpcMain;
  api: KioskApi;
  events: { subscribe(listener: (event: KioskEvent) => void): () => void };
  logger: Logger;
  /** Events kept per window while its page is not listening yet; older ones are dropped first. */
  maxQueued?: number;
}

export interface KioskIpc {
  /** Makes a window's page one the handlers answer and the events go to. */
  attach(contents: EventTarget): void;
  /** The page is loading again (reload, crash): queue its events until it subscribes anew. */
  reset(contents: EventTarget): void;
  detach(contents: EventTarget): void;
  dispose(): void;
}

// issue 28: the refusal's words are the table's (shared/kiosk-errors.ts), as the web shell's are.
const FORBIDDEN: Result<never> = { ok: false, error: refuse('forbidden_sender').kioskError() };

/**
 * The kiosk's IPC (issue 6): one handler per KioskApi method. Each checks the sender (our window, top frame, our
 * origin) and then hands the payload to the one boundary dispatcher both shells use (electron/core/api-dispatch.ts),
 * which validates it with the contract's schema before any service runs (style guide 4). Answers are Results, never
 * throws (style guide 5). Core events go to every attached window once its page has subscribed (style guide 12).
 */
export function registerKioskIpc(options: KioskIpcOptions): KioskIpc {
  const { ipcMain, logger } = options;
  const maxQueued = options.maxQueued ?? 200;
  const windows = new Map<number, { contents: EventTarget; ready: boolean; queue: KioskEvent[] }>();
  const ids = new Set<number>();

  const trusted = (event: IpcSenderEvent, what: string): boolean => {
    if (isTrustedSender(event, ids)) return true;
    // The frame's URL says who tried; the payload is not logged (it may carry a PIN or a client secret).
    logger.warn('IPC from an untrusted sender refused', { what, contents: event.sender.id, frame: event.senderFrame?.url.slice(0, 200) ?? null });
    return false;
  };

  for (const method of KIOSK_METHODS) {
    ipcMain.handle(methodChannel(method), (event, payload: unknown) => (trusted(event, method) ? dispatch(options.api, method, payload) : FORBIDDEN));
  }

  const onReady = (event: IpcMainEvent): void => {
    if (!trusted(event, EVENTS_READY_CHANNEL)) return;
    const entry = windows.get(event.sender.id);
    if (!entry) return;
    entry.ready = true;
    const queued = entry.queue.splice(0);
    for (const item of queued) send(entry.contents, item);
  };
  ipcMain.on(EVENTS_READY_CHANNEL, onReady);

  const send = (contents: EventTarget, event: KioskEvent): void => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, event);
  };
  const unsubscribe = options.events.subscribe((event) => {
    for (const entry of windows.values()) {
      if (entry.ready) send(entry.contents, event);
      else {
        entry.queue.push(event);
        if (entry.queue.length > maxQueued) entry.queue.shift();
      }
    }
  });

  return {
    attach(contents) {
      ids.add(contents.id);
      windows.set(contents.id, { contents, ready: false, queue: [] });
    },
    reset(contents) {
      const entry = windows.get(contents.id);
      if (entry) entry.ready = false;
    },
    detach(contents) {
      ids.delete(contents.id);
      windows.delete(contents.id);
    },
    dispose() {
      unsubscribe();
      for (const method of KIOSK_METHODS) ipcMain.removeHandler(methodChannel(method));
      ipcMain.removeListener(EVENTS_READY_CHANNEL, onReady);
      windows.clear();
      ids.clear();
    },
  };
}
