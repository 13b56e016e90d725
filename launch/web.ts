import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createLogger } from '../electron/core/logger.ts';
import { startWebShell } from '../electron/web-shell/server.ts';
import { KIOSK_USAGE, parseKioskConfig } from './kiosk-config.ts';
import { startKiosk } from './start-kiosk.ts';

// `npm run web -- [--port N] [--no-open] [--data-dir DIR] [--platform-url URL | --training]`: the kiosk without
// Electron (issue 4 "Web shell"). With no platform configured it runs in training mode on the embedded sandbox and
// relay; with one (flag, KIOSK_PLATFORM_URL or <data dir>/config.json) in live mode. Prints one line with the URL.
const USAGE = `npm run web -- ${KIOSK_USAGE.replace(/^Usage: /, '')}`;
const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(`Usage: ${USAGE}`);
  process.exit(0);
}
const parsed = parseKioskConfig(args, process.env);
if (!parsed.ok) {
  process.stderr.write(`web: ${parsed.message}\nUsage: ${USAGE}`);
  process.exit(2);
}
const config = parsed.config;

const logger = createLogger({ write: (line) => process.stderr.write(`${line}\n`) });
let kiosk;
try {
  kiosk = await startKiosk(config, {
    logger,
    // issue 4: the authorization_code flow opens the platform's page in the system browser.
    openBrowser: async (url) => {
      const opener = ['/usr/bin/xdg-open', '/usr/bin/chromium'].find((path) => existsSync(path));
      if (!opener) throw new Error('no system browser found to open the authorization page');
      spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
    },
  });
} catch (error) {
  process.stderr.write(`web: the kiosk could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const staticDir = join(import.meta.dirname, '..', 'renderer', 'dist');
const shell = await startWebShell({ api: kiosk.core.api, events: kiosk.core.events, staticDir: existsSync(join(staticDir, 'index.html')) ? staticDir : null, port: config.port });
const mode = kiosk.training ? 'training mode' : `live mode, platform ${config.platformUrl}`;
process.stdout.write(`Kiosk (${mode}) at ${shell.url}\n`);
if (kiosk.warning) process.stderr.write(`web: ${kiosk.warning}\n`);

if (config.open) {
  const browser = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => existsSync(path));
  if (browser) {
    // App mode: no address bar or tabs, as close to a kiosk window as a browser gets.
    spawn(browser, [`--app=${shell.url}`, '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-component-update'], { stdio: 'ignore', detached: true }).unref();
  } else {
    process.stderr.write('web: no Chromium found; open the URL above in a browser\n');
  }
}

const started = kiosk;
let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await shell.close();
  await started.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
