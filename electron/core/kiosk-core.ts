import type { Clock, Logger, Random, ReceiptPrinter, TokenVault, TrainingPort } from './ports.ts';
import type { KioskApi, KioskEvent } from '../../shared/kiosk-api.ts';

// issue 13: the kiosk core's contract with the shells; compose.ts builds it (the one wiring that shells, tests and
// benches use).

export interface KioskCoreOptions {
  /** Folder of the kiosk's database (kiosk.sqlite). */
  dataDir: string;
  /**
   * issue 18 "Support bundle": the Electron shell's log folder (kiosk.log), whose last days go into the bundle.
   * Default `<dataDir>/logs`; live mode's data is in `<data dir>/live`, its logs in `<data dir>/logs`.
   */
  logsDir?: string;
  platformUrl: string;
  /**
   * The launch's relay (training: the embedded one). What a manager saves in the settings (relayUrl, relayKey)
   * overrides it; its key is only ever sent to its own URL.
   */
  relay: { url: string; key: string } | null;
  vault: TokenVault;
  /** Shown to the manager when the vault is memory (training without a keychain). */
  vaultWarning?: string | null;
  /** Training mode (from launch/: the embedded sandbox); enables simulatePayment and marks every screen. */
  training?: TrainingPort | null;
  clock?: Clock;
  random?: Random;
  fetch?: typeof fetch;
  logger?: Logger;
  /** Opens the platform's authorization page in the system browser (authorization_code flow). */
  openBrowser?: (url: string) => Promise<void>;
  /** Silent receipt printing (issue 6, the Electron shell); absent: printReceipt answers printed: false. */
  printer?: ReceiptPrinter;
  pollIntervalMs?: number;
}

export interface KioskCore {
  api: KioskApi;
  events: { subscribe(listener: (event: KioskEvent) => void): () => void };
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * issue 12: the secrets this core holds now (tokens, client secret, relay keys, the PIN pepper, training's client
   * secret), for the logger to redact; asked on every log line, so it answers from memory, synchronously.
   */
  secrets(): string[];
  /** issue 27: the update feed URL in force, password included (getSettings shows it masked), for the shell's updater. */
  updateFeedUrl(): string | null;
}
