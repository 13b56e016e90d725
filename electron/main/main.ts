// The Electron main process entry (issue 6), bundled by build/bundle-electron.ts into out/main/main.mjs. A composition
// root like launch/: it wires the shell (kiosk-app.ts) to the launch config and the kiosk core.
import { join } from 'node:path';
import * as electron from 'electron';
import { parseKioskConfig } from '../../launch/kiosk-config.ts';
import { startKiosk } from '../../launch/start-kiosk.ts';
import { runKioskApp } from './kiosk-app.ts';

// electron/main/ in the sources, out/main/ in the bundle: the project (or app.asar) root is two levels up either way.
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
