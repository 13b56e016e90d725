import { VaultUnavailableError, type Logger, type TokenVault } from '../ports.ts';
import { effectiveRelay, sameUrl, type EffectiveSettings, type LaunchDefaults } from '../settings/kiosk-settings.ts';

type Relay = { url: string; key: string };

/**
 * The relay key a manager saved lives in the vault (never in the database): read once at start. A vault that cannot
 * be read leaves the launch's relay, if any, in force.
 */
export async function readSavedRelayKey(vault: TokenVault, logger: Logger): Promise<string | null> {
  try {
    return await vault.get('relay_key');
  } catch (error) {
    logger.warn('the relay key could not be read from the vault', { code: error instanceof VaultUnavailableError ? error.code : 'unknown' });
    return null;
  }
}

export interface RelaySwitchOptions {
  settings(): EffectiveSettings;
  launch: LaunchDefaults;
  /** The key read from the vault at start (readSavedRelayKey). */
  savedKey: string | null;
  logger: Logger;
  /** Closes the old stream and opens `next`'s; `otherRelay`: another URL, whose cursor means nothing here (LiveStatus.setRelay). */
  apply(next: Relay | null, otherRelay: boolean): Promise<void>;
  /** Told before a switch is applied (the status line: polling until the new stream is live). */
  onSwitch(next: Relay | null): void;
}

/**
 * The relay in force (issue 5 settings): the launch's, or what a manager saved over it. A new relay URL or key takes
 * effect at once: the old stream is closed and the new one opened, one change after the other; the poller covers the gap.
 */
export class RelaySwitch {
  readonly #o: RelaySwitchOptions;
  #savedKey: string | null;
  #active: Relay | null;
  #change: Promise<void> = Promise.resolve();

  constructor(o: RelaySwitchOptions) {
    this.#o = o;
    this.#savedKey = o.savedKey;
    this.#active = this.#wanted();
  }

  /** The relay whose stream is (or is being) opened; null: none configured. */
  get active(): Relay | null {
    return this.#active;
  }

  /** The relay key a manager saved (in the vault), as last read or written. */
  get savedKey(): string | null {
    return this.#savedKey;
  }

  set savedKey(key: string | null) {
    this.#savedKey = key;
  }

  /** Applies a changed relay URL or key after the switches before it; a failed switch is logged, never thrown. */
  reconfigure(): void {
    this.#change = this.#change
      .then(async () => {
        const next = this.#wanted();
        const active = this.#active;
        if (next?.url === active?.url && next?.key === active?.key) return;
        const otherRelay = !(next && active && sameUrl(next.url, active.url));
        this.#active = next;
        this.#o.onSwitch(next);
        await this.#o.apply(next, otherRelay);
      })
      .catch((error: unknown) => this.#o.logger.warn('switching the relay failed', { error: error instanceof Error ? error.name : 'unknown' }));
  }

  /** Resolves once the switches asked for so far are done (the core waits for them before it closes the database). */
  settled(): Promise<void> {
    return this.#change;
  }

  #wanted(): Relay | null {
    return effectiveRelay(this.#o.settings(), this.#savedKey, this.#o.launch);
  }
}
