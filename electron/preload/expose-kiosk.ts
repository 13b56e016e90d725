import type { ContextBridge, IpcRenderer } from 'electron';
import type { KioskApi, KioskEvent, KioskMethod, Result } from '../../shared/kiosk-api.ts';
import { EVENT_CHANNEL, EVENTS_READY_CHANNEL, methodChannel } from './channels.ts';
import { SHELL_UNREACHABLE } from '../../shared/shell-unreachable.ts';

/** The global the renderer finds the bridge under (renderer/src/lib/bridge.ts `createBridge` reads window.kiosk). */
export const EXPOSED_NAME = 'kiosk';

/** The same shape as the renderer's Bridge: the KioskApi methods and one event subscription. */
export interface KioskBridge {
  api: KioskApi;
  subscribe(listener: (event: KioskEvent) => void): () => void;
}

export type PreloadIpc = Pick<IpcRenderer, 'invoke' | 'on' | 'send'>;

// shell_unreachable without the error table (shared/shell-unreachable.ts says why): the preload stays free of it.
const unreachable: Result<never> = { ok: false, error: SHELL_UNREACHABLE };

/**
 * Builds the bridge the page gets (issue 6 "electron/preload", style guide 3): one named function per KioskApi
 * method — `methods` is the contract's KIOSK_METHODS, which the build writes into the preload so the bundle does not
 * carry the schemas — each bound to its own channel, and a subscription that hands the page the event payload only. Nothing here gives the page ipcRenderer, a channel name or the IPC event object (whose
 * `sender` is ipcRenderer). Inputs are not checked here: main validates every payload (style guide 4).
 */
export function createKioskBridge(ipc: PreloadIpc, methods: readonly KioskMethod[]): KioskBridge {
  const api: Record<string, (input?: unknown) => Promise<Result<unknown>>> = {};
  for (const method of methods) {
    const channel = methodChannel(method);
    // A rejection means main has no handler (still starting, or shutting down): answer with a Result like the web
    // shell's bridge does, so the page handles one failure shape (style guide 5).
    api[method] = (input?: unknown) => (ipc.invoke(channel, input ?? {}) as Promise<Result<unknown>>).catch(() => unreachable);
  }
  const listeners = new Set<(event: KioskEvent) => void>();
  let announced = false;
  ipc.on(EVENT_CHANNEL, (_event, payload: KioskEvent) => {
    for (const listener of listeners) {
      try {
        listener(payload);
      } catch {
        // One failing listener must not starve the others of the event.
      }
    }
  });
  return {
    api: Object.freeze(api) as unknown as KioskApi,
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('subscribe needs a function');
      listeners.add(listener);
      // style guide 12: main queues events until the page listens; the first subscription says it does.
      if (!announced) {
        announced = true;
        ipc.send(EVENTS_READY_CHANNEL);
      }
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** What the preload entry runs: exposes the bridge, and nothing else, in the page's main world. */
export function exposeKiosk(contextBridge: Pick<ContextBridge, 'exposeInMainWorld'>, ipc: PreloadIpc, methods: readonly KioskMethod[]): void {
  contextBridge.exposeInMainWorld(EXPOSED_NAME, createKioskBridge(ipc, methods));
}
