// The Electron shell composed (electron/main/kiosk-app.ts) over the MOCK `electron` module (electron-mock.ts), with the
// real launch config parser and the real kiosk behind it (launch/start-kiosk.ts in training: embedded sandbox and
// relay on 127.0.0.1, SQLite in a temp dir). Shared by the shell's tests so each says only what its case changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKioskConfig, type KioskLaunchConfig } from '../../launch/kiosk-config.ts';
import { startKiosk, type StartedKiosk } from '../../launch/start-kiosk.ts';
import { runKioskApp, type ElectronModule, type KioskAppDeps, type RunningKioskApp } from '../../electron/main/kiosk-app.ts';
import { createElectronMock, type ElectronMock } from './fakes/electron-mock.ts';

export interface LaunchedKioskApp {
  electron: ElectronMock;
  app: RunningKioskApp | null;
  dataDir: string;
  echoed: string[];
  /** How many times the shell asked to start the kiosk core. */
  starts: number;
  /** The kiosk launch/start-kiosk.ts started, when it did. */
  started: StartedKiosk | null;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** An installed app (no entry script in argv) rather than a development run (`electron <script>`). */
  packaged?: boolean;
  /** Command-line switches before the kiosk's own arguments. */
  switches?: string[];
  /** The kiosk's own arguments; `--data-dir <temp dir>` unless given. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  lock?: boolean;
  displays?: ElectronMock['screen']['displays'];
  /** Runs on the fresh data dir before the shell starts (e.g. to plant a damaged database). */
  prepare?: (dataDir: string) => void;
  /** issue 18: the autoUpdater MOCK the shell's updater uses (test/support/fakes/auto-updater-mock.ts). */
  autoUpdater?: KioskAppDeps['autoUpdater'];
  /** issue 27: the pinned update key the shell's updater checks the feed's signature with (a test feed's own). */
  updateKey?: KioskAppDeps['updateKey'];
}

export async function launchKioskApp(options: LaunchOptions = {}): Promise<LaunchedKioskApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-app-'));
  options.prepare?.(dataDir);
  const electron = createElectronMock({
    ...(options.packaged !== undefined ? { packaged: options.packaged } : {}),
    ...(options.lock !== undefined ? { lock: options.lock } : {}),
    ...(options.displays ? { displays: options.displays } : {}),
  });
  const echoed: string[] = [];
  let starts = 0;
  let started: StartedKiosk | null = null;
  // A packaged kiosk's argv has no entry script; a development run's has one (electron <script>).
  const head = options.packaged ? ['/opt/QR Counter Kiosk/qr-counter-kiosk'] : ['/usr/lib/electron/electron', '/app/out/main/main.mjs'];
  const deps: KioskAppDeps<KioskLaunchConfig> = {
    argv: [...head, ...(options.switches ?? []), ...(options.args ?? ['--data-dir', dataDir])],
    env: options.env ?? {},
    paths: { rendererDir: join(dataDir, 'no-renderer'), preload: '/app/out/preload/preload.cjs' },
    parseConfig: parseKioskConfig,
    startKiosk: async (config, extras) => {
      starts += 1;
      started = await startKiosk(config, extras);
      return started;
    },
    echo: (line) => void echoed.push(line),
    ...(options.autoUpdater ? { autoUpdater: options.autoUpdater, platform: 'linux' as const } : {}),
    ...(options.updateKey ? { updateKey: options.updateKey } : {}),
  };
  const running = runKioskApp(electron as unknown as ElectronModule, deps);
  electron.ready();
  const app = await running;
  return {
    electron,
    app,
    dataDir,
    echoed,
    get starts() {
      return starts;
    },
    get started() {
      return started;
    },
    async close() {
      await app?.quit();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
