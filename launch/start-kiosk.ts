import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { compose, openKioskStore, type KioskCore, type KioskStore } from '../electron/core/compose.ts';
import { systemClock } from '../node-common/time.ts';
import { openVault } from '../electron/core/vault/open-vault.ts';
import { ensurePrivateDir } from '../electron/core/private-files.ts';
import type { Logger, ReceiptPrinter } from '../electron/core/ports.ts';
import { startEmbeddedPlatform } from './embedded-platform.ts';
import type { KioskLaunchConfig } from './kiosk-config.ts';

export interface KioskExtras {
  logger: Logger;
  /** Opens the platform's authorization page in the system browser (authorization_code flow). */
  openBrowser?: (url: string) => Promise<void>;
  /** Silent receipt printing (the Electron shell). */
  printer?: ReceiptPrinter;
  /**
   * issue 14 "cold start": called once the kiosk's database is open (and, live, the keychain found), the last step that
   * refuses a start for a reason the person must act on (a damaged file, no keychain): a shell may show its address
   * from here while the rest starts. Not called when the start is refused before that.
   */
  opened?: () => void;
}

export interface StartedKiosk {
  core: KioskCore;
  training: boolean;
  /** The platform the kiosk talks to: in training, the embedded sandbox's address (printed at start, issue 15). */
  platformUrl: string;
  /** Something the person at the counter should know (training without a keychain keeps tokens in memory). */
  warning: string | null;
  /**
   * issue 12: the secrets this launch holds now (the core's, and in training the embedded platform's webhook secret),
   * for the shells' loggers to redact. Synchronous and from memory: it is asked on every log line.
   */
  secrets(): string[];
  /**
   * issue 14 "cold start, measure where time goes": when each step of the start ended, in ms since the process started
   * (performance.now()): `database` (the kiosk's database opened), `platform` (embedded sandbox and relay listening,
   * training), `vault` (keychain probed), `core` (composed), `started` (connected, recovered, live updates on). For the
   * shells' start-up log line.
   */
  startup: Record<string, number>;
  /** Stops the core, then the embedded platform (training). */
  close(): Promise<void>;
}

/** Live data lives apart from training data, so a training sale can never be mistaken for a real one. */
export const LIVE_DIR = 'live';

/**
 * Starts the kiosk core for a launch configuration (launch/kiosk-config.ts), started and ready for a shell.
 *
 * Training: the embedded sandbox and relay (launch/embedded-platform.ts) under `<dataDir>/training`, the kiosk's own
 * data in `<dataDir>` as it always was; the kiosk connects itself; tokens in the keychain (entries of this data folder,
 * trainingVaultProfile), or in memory when there is none (then `warning` says so).
 *
 * Live: the platform at config.platformUrl; the kiosk's data in `<dataDir>/live`; tokens only in the OS keychain
 * (issue 4), under entries of their own (vault profile from the data folder, so training tokens and another data
 * folder's tokens are never read as this kiosk's); the relay is what a manager saved in the settings. The kiosk starts
 * disconnected until a manager connects it from the settings (and stays connected across restarts afterwards).
 *
 * Files (issue 12 "data at rest"): the data folder, `live/` and `training/` are 0700 (tightened when they exist with a
 * looser mode: the data folder is the app's own), the files in them 0600 (see electron/core/private-files.ts).
 *
 * Rejects with the vault's VaultUnavailableError (its message says what to install) when live mode finds no keychain,
 * with PrivateFileError when a folder cannot be made private, and with the store's error when the database cannot be
 * opened (DamagedDatabaseError, whose one-line message names the file and what to do, when it is damaged); nothing is
 * left running then.
 */
export async function startKiosk(config: KioskLaunchConfig, extras: KioskExtras): Promise<StartedKiosk> {
  ensurePrivateDir(config.dataDir);
  const common = {
    logger: extras.logger,
    // issue 18: the Electron shell's log folder, whose last days the support bundle holds (live data is in live/).
    logsDir: join(config.dataDir, 'logs'),
    ...(extras.openBrowser ? { openBrowser: extras.openBrowser } : {}),
    ...(extras.printer ? { printer: extras.printer } : {}),
  };
  const startup: Record<string, number> = {};
  const step = <T>(name: string, work: Promise<T>): Promise<T> =>
    work.then((value) => {
      startup[name] = Math.round(performance.now());
      return value;
    });
  if (config.mode === 'training') {
    // issue 14 "cold start": the keychain probe (a D-Bus round trip on Linux) runs while the embedded platform starts,
    // not after it. Its rejection is taken either way, so a platform that fails first leaves no unhandled one.
    const opening = step('vault', openVault({ training: true, profile: trainingVaultProfile(config.dataDir) }));
    opening.catch(() => undefined);
    // issue 14 "cold start": the database before the platform, so that a damaged file is refused before a shell shows
    // its address (issue 12), and the shell can show it while the platform starts.
    const store = openStore(config.dataDir, startup);
    extras.opened?.();
    let platform: Awaited<ReturnType<typeof startEmbeddedPlatform>>;
    try {
      platform = await step('platform', startEmbeddedPlatform({ dataDir: join(config.dataDir, 'training') }));
    } catch (error) {
      store.db.close();
      throw error;
    }
    try {
      const { vault, warning } = await opening;
      const core = await step(
        'core',
        compose({
          store,
          dataDir: config.dataDir,
          platformUrl: platform.platformUrl,
          relay: { url: platform.relayUrl, key: platform.kioskKey },
          vault,
          vaultWarning: warning,
          training: platform.training,
          ...common,
        }),
      );
      await step('started', startOrStop(core));
      return {
        core,
        training: true,
        platformUrl: platform.platformUrl,
        warning,
        secrets: () => [...core.secrets(), platform.webhookSecret],
        startup,
        async close() {
          await core.stop();
          await platform.close();
        },
      };
    } catch (error) {
      await platform.close();
      throw error;
    }
  }

  if (!config.platformUrl) throw new TypeError('live mode needs a platform URL');
  const dataDir = join(config.dataDir, LIVE_DIR);
  ensurePrivateDir(dataDir);
  // issue 4: only training may keep tokens in memory; openVault rejects with what to install otherwise.
  const { vault } = await step('vault', openVault({ training: false, profile: liveVaultProfile(config.dataDir) }));
  const store = openStore(dataDir, startup);
  extras.opened?.();
  const core = await step('core', compose({ store, dataDir, platformUrl: config.platformUrl, relay: null, vault, vaultWarning: null, training: null, ...common }));
  await step('started', startOrStop(core));
  return { core, training: false, platformUrl: config.platformUrl, warning: null, secrets: () => core.secrets(), startup, close: () => core.stop() };
}

/** Opens the kiosk's database in `dataDir` (throwing DamagedDatabaseError and the like as compose would) and notes when. */
function openStore(dataDir: string, startup: Record<string, number>): KioskStore {
  const store = openKioskStore(join(dataDir, 'kiosk.sqlite'), systemClock);
  startup['database'] = Math.round(performance.now());
  return store;
}

/** The keychain profile of a live kiosk: one per data folder (KeytarVault account names end in `@profile`). */
export function liveVaultProfile(dataDir: string): string {
  return `live-${folderHash(dataDir)}`;
}

/**
 * The keychain profile of a training kiosk: one per data folder too (issue 12), so two training folders never share a
 * manager PIN pepper (two kiosks making the first one at once would each key a PIN with a pepper the other replaced).
 * Training's tokens lost by the change of name are no loss: training connects itself when it finds none.
 */
export function trainingVaultProfile(dataDir: string): string {
  return `training-${folderHash(dataDir)}`;
}

function folderHash(dataDir: string): string {
  return createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
}

async function startOrStop(core: KioskCore): Promise<void> {
  try {
    await core.start();
  } catch (error) {
    await core.stop().catch(() => undefined);
    throw error;
  }
}
