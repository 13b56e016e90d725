import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createKioskCore } from '../electron/core/kiosk-service.ts';
import { openVault } from '../electron/core/vault/open-vault.ts';
import { createLogger } from '../electron/core/logger.ts';
import { startWebShell } from '../electron/web-shell/server.ts';
import { startEmbeddedPlatform } from './embedded-platform.ts';

// `npm run web -- [--port N] [--no-open] [--data-dir DIR]`: the kiosk without Electron (issue 4 "Web shell"). With no
// platform configured it runs in training mode on the embedded sandbox and relay. Prints one line with the URL.
const USAGE = 'Usage: npm run web -- [--port N] [--no-open] [--data-dir DIR]\n';
const args = process.argv.slice(2);
let port = 0;
let open = true;
let dataDir = process.env.KIOSK_DATA_DIR ?? join(homedir(), '.qr-counter-kiosk');
for (let i = 0; i < args.length; i += 1) {
  const arg = args[i] as string;
  if (arg === '--no-open') open = false;
  else if (arg === '--port' && /^\d+$/.test(args[i + 1] ?? '') && Number(args[i + 1]) <= 65535) port = Number(args[++i]);
  else if (arg === '--data-dir' && args[i + 1] && !(args[i + 1] as string).startsWith('--')) dataDir = args[++i] as string;
  else if (arg === '--help' || arg === '-h') {
    process.stdout.write(USAGE);
    process.exit(0);
  } else {
    process.stderr.write(`web: ${arg === '--port' || arg === '--data-dir' ? `${arg} needs a value` : `unknown argument ${arg.slice(0, 40)}`}\n${USAGE}`);
    process.exit(2);
  }
}

const logger = createLogger({ write: (line) => process.stderr.write(`${line}\n`) });
const platform = await startEmbeddedPlatform({ dataDir: join(dataDir, 'training') });
const { vault, warning } = await openVault({ training: true });
const core = await createKioskCore({
  dataDir,
  platformUrl: platform.platformUrl,
  relay: { url: platform.relayUrl, key: platform.kioskKey },
  vault,
  vaultWarning: warning,
  training: { clientId: platform.clientId, clientSecret: platform.clientSecret, countryCode: platform.countryCode, posId: platform.posId },
  logger,
  // issue 4: the authorization_code flow opens the platform's page in the system browser.
  openBrowser: async (url) => {
    const opener = ['/usr/bin/xdg-open', '/usr/bin/chromium'].find((path) => existsSync(path));
    if (!opener) throw new Error('no system browser found to open the authorization page');
    spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
  },
});
await core.start();
const staticDir = join(import.meta.dirname, '..', 'renderer', 'dist');
const shell = await startWebShell({ api: core.api, events: core.events, staticDir: existsSync(join(staticDir, 'index.html')) ? staticDir : null, port });
process.stdout.write(`Kiosk (training mode) at ${shell.url}\n`);
if (warning) process.stderr.write(`web: ${warning}\n`);

if (open) {
  const browser = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => existsSync(path));
  if (browser) {
    // App mode: no address bar or tabs, as close to a kiosk window as a browser gets.
    spawn(browser, [`--app=${shell.url}`, '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-component-update'], { stdio: 'ignore', detached: true }).unref();
  } else {
    process.stderr.write('web: no Chromium found; open the URL above in a browser\n');
  }
}

const stop = async (): Promise<void> => {
  await shell.close();
  await core.stop();
  await platform.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
