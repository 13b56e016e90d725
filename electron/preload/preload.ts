// The preload entry (issue 6). Built by build/bundle-electron.ts into one CommonJS file whose only require is
// `electron`: sandboxed preloads cannot load other modules (Electron "Process Sandboxing").
import { contextBridge, ipcRenderer } from 'electron';
import type { KioskMethod } from '../../shared/kiosk-api.ts';
import { exposeKiosk } from './expose-kiosk.ts';

// shared/kiosk-api.ts KIOSK_METHODS, written in by the bundler (esbuild `define`): the method list comes from the
// contract without bundling its zod schemas into every window (test/unit/electron/preload.test.ts checks the bundle).
declare const __KIOSK_METHODS__: readonly KioskMethod[];

exposeKiosk(contextBridge, ipcRenderer, __KIOSK_METHODS__);
