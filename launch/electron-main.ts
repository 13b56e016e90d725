// The Electron main process entry (issue 6), bundled by build/bundle-electron.ts into out/main/main.mjs. The Electron
// composition root: it injects the `electron` module, the launch config and startKiosk into the shell
// (electron/main/kiosk-app.ts). It lives in launch/ so electron/ never imports launch/ (issue 13: no folder cycle);
// it is the one launch/ file that runs inside Electron (eslint.config.js).
import { join } from 'node:path';
import * as electron from 'electron';
import { runKioskApp } from '../electron/main/kiosk-app.ts';
import { parseKioskConfig } from './kiosk-config.ts';
import { startKiosk } from './start-kiosk.ts';

// It only ever runs as the bundle, out/main/main.mjs: the project (or app.asar) root is two levels up.
const root = join(import.meta.dirname, '..', '..');

// systemd stops the user unit with SIGTERM: quit the normal way, so the core closes its database first.
process.on('SIGTERM', () => electron.app.quit());

await runKioskApp(electron, {
  argv: process.argv,
  env: process.env,
  paths: { rendererDir: join(root, 'renderer', 'dist'), preload: join(root, 'out', 'preload', 'preload.cjs') },
  parseConfig: parseKioskConfig,
  startKiosk,
});
