import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { ioTurn } from './io-turn.ts';
import type { KioskCore } from '../electron/core/kiosk-core.ts';
import type { KioskStore } from '../electron/core/store/kiosk-store.ts';
import { openKioskDatabase } from '../electron/core/store/database.ts';
import { systemClock } from '../node-common/time.ts';
import { ensurePrivateDir } from '../electron/core/host/private-files.ts';
import type { Logger, ReceiptPrinter, TrainingPort } from '../electron/core/ports.ts';
import type { KioskLaunchConfig } from './kiosk-config.ts';
import type { EmbeddedPlatform } from './embedded-platform.ts';
import { bindTrainingPorts, sandboxCustomer, trainingSellerHint, type TrainingPorts } from './training-ports.ts';

// issue 14 "cold start": the core, the keychain and the embedded platform (sandbox and relay, with fastify) are most
// of the launch's code. Imported when a start asks for them, the core's and the keychain's files are read while the
// database opens and they run after the shell shows its address (the opened() hook), while the browser loads the page,
// instead of before the shell even listens; the embedded platform's are read after the page's first screen (round 3). In the web shell's bundle (build/bundle-web.ts) they are chunks of their own, out/web-chunks/.
const loadCompose = () => import('../electron/core/compose.ts');
const loadVault = () => import('../electron/core/vault/open-vault.ts');
const loadPlatform = () => import('./embedded-platform.ts');
// issue 14 "cold start": the repositories' row checks bring zod and the schemas (about 40 ms of module loading): the
// file is opened with database.ts alone, and the repositories are made over it after the address is shown.
const loadStore = () => import('../electron/core/store/kiosk-store.ts');

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
  /**
   * issue 14 "cold start": called once the core is composed, before it starts (training's sign-in, recovery, live
   * updates): a shell may answer reads from its database from here (launch/run-web.ts EARLY_READS). Not called when
   * the start is refused before that. In training the start waits for what it returns: the web shell lets its page
   * read its first screen before the start's own work takes the event loop (it resolves within a second either way):
   * the embedded platform's start too (issue 14 round 3: the core is composed before it, on its bound addresses).
   * Live mode does not wait: its first screen says whether the kiosk can sell, which its start decides.
   */
  composed?: (core: KioskCore) => void | Promise<void>;
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
 * looser mode: the data folder is the app's own), the files in them 0600 (see electron/core/host/private-files.ts).
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
    // issue 14 "cold start": the keychain probe (a D-Bus round trip on Linux) runs while the database opens and the
    // training ports are bound, not after them. Its rejection is taken either way, so a start that fails first leaves
    // no unhandled one.
    const opening = step('vault', loadVault().then(({ openVault }) => openVault({ training: true, profile: trainingVaultProfile(config.dataDir) })));
    opening.catch(() => undefined);
    // The core's code is read from disk while the database opens (its files are read in the background; nothing of it
    // runs before the address is shown: that needs a turn of the event loop).
    const composing = loadCompose();
    composing.catch(() => undefined);
    const storing = loadStore();
    storing.catch(() => undefined);
    // issue 14 "cold start": the database before the platform, so that a damaged file is refused before a shell shows
    // its address (issue 12), and the shell can show it while the rest starts.
    const db = openDatabase(config.dataDir, startup);
    extras.opened?.();
    // issue 14 "cold start, round 3": the keypad does not wait for the training platform. Its addresses are bound now
    // (training-ports.ts), so the core is composed with them and answers the first screen's reads from its database;
    // the embedded sandbox and relay (their code is most of the start's CPU) are built on them after that, and the
    // core starts (training's sign-in, its first call to them) once they answer.
    const trainingDir = join(config.dataDir, 'training');
    let ports: TrainingPorts;
    try {
      ports = await bindTrainingPorts();
    } catch (error) {
      db.close();
      throw error;
    }
    const seller = trainingSellerHint(trainingDir);
    let platform: EmbeddedPlatform | null = null;
    // The credentials are the sandbox's (its data file holds the training application): read by the core when it
    // starts, after the platform has started. Before that there is no secret to redact.
    const training: TrainingPort = {
      get clientId() {
        return platform?.clientId ?? '';
      },
      get clientSecret() {
        return platform?.clientSecret ?? '';
      },
      countryCode: seller.countryCode,
      posId: seller.posId,
      simulatePayment: sandboxCustomer(ports.platformUrl),
    };
    let core: KioskCore;
    let warning: string | null;
    try {
      await ioTurn();
      const opened = await opening;
      warning = opened.warning;
      const { vault } = opened;
      const { compose } = await composing;
      const store = (await storing).kioskStoreOver(db, systemClock);
      core = await step(
        'core',
        compose({
          store,
          dataDir: config.dataDir,
          platformUrl: ports.platformUrl,
          relay: { url: ports.relayUrl, key: ports.kioskKey },
          vault,
          vaultWarning: warning,
          training,
          ...common,
        }),
      );
    } catch (error) {
      await ports.close();
      throw error;
    }
    try {
      await extras.composed?.(core);
      await ioTurn();
      const { startEmbeddedPlatform } = await loadPlatform();
      await ioTurn();
      platform = await step('platform', startEmbeddedPlatform({ dataDir: trainingDir, countryCode: seller.countryCode, posId: seller.posId, ports }));
    } catch (error) {
      await core.stop().catch(() => undefined);
      await ports.close();
      throw error;
    }
    const started = platform;
    try {
      await ioTurn();
      await step('started', startOrStop(core));
      return {
        core,
        training: true,
        platformUrl: started.platformUrl,
        warning,
        secrets: () => [...core.secrets(), started.webhookSecret],
        startup,
        async close() {
          await core.stop();
          await started.close();
        },
      };
    } catch (error) {
      await started.close();
      throw error;
    }
  }

  if (!config.platformUrl) throw new TypeError('live mode needs a platform URL');
  const dataDir = join(config.dataDir, LIVE_DIR);
  ensurePrivateDir(dataDir);
  // issue 4: only training may keep tokens in memory; openVault rejects with what to install otherwise.
  const { vault } = await step('vault', loadVault().then(({ openVault }) => openVault({ training: false, profile: liveVaultProfile(config.dataDir) })));
  const storing = loadStore();
  storing.catch(() => undefined);
  const db = openDatabase(dataDir, startup);
  extras.opened?.();
  const { compose } = await loadCompose();
  const store = (await storing).kioskStoreOver(db, systemClock);
  const core = await step('core', compose({ store, dataDir, platformUrl: config.platformUrl, relay: null, vault, vaultWarning: null, training: null, ...common }));
  void extras.composed?.(core);
  await step('started', startOrStop(core));
  return { core, training: false, platformUrl: config.platformUrl, warning: null, secrets: () => core.secrets(), startup, close: () => core.stop() };
}

/** Opens the kiosk's database in `dataDir` (throwing DamagedDatabaseError and the like as compose would) and notes when. */
function openDatabase(dataDir: string, startup: Record<string, number>): KioskStore['db'] {
  const db = openKioskDatabase(join(dataDir, 'kiosk.sqlite'));
  startup['database'] = Math.round(performance.now());
  return db;
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
