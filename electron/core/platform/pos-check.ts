import { PlatformCallError } from './errors.ts';
import type { PlatformPos } from './stores-client.ts';
import type { Clock } from '../ports.ts';

/** What the platform last said about the chosen POS (readiness; issue 16 "Cache the POS check briefly"). */
export interface PosCheckResult {
  state: 'found' | 'not_found' | 'unchecked';
  pos: PlatformPos | null;
  /** When the platform was asked, ms on the core's clock. */
  checkedAt: number;
}

/**
 * The readiness check's memory of the chosen POS: an answer is kept a minute (ten seconds when the platform could
 * not be asked), so a screen that asks on every render costs the platform one call a minute; concurrent askers share
 * one call. What the kiosk learns otherwise (a POS chosen, a charge answered pos_not_found) replaces it at once.
 */
export class PosCheck {
  #entry: { posId: string; result: PosCheckResult } | null = null;
  #running: { posId: string; promise: Promise<PosCheckResult> } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly keepMs = 60_000,
    private readonly keepUncheckedMs = 10_000,
  ) {}

  /** The kept answer for `posId` while fresh, else `ask`'s (a PlatformCallError from it: unchecked; anything else rejects). */
  check(posId: string, ask: () => Promise<PlatformPos | null>): Promise<PosCheckResult> {
    const kept = this.#entry;
    if (kept && kept.posId === posId && this.clock.now() - kept.result.checkedAt < (kept.result.state === 'unchecked' ? this.keepUncheckedMs : this.keepMs)) {
      return Promise.resolve(kept.result);
    }
    if (this.#running?.posId === posId) return this.#running.promise;
    const checkedAt = this.clock.now();
    const promise = ask().then(
      (pos): PosCheckResult => this.#keep(posId, { state: pos ? 'found' : 'not_found', pos, checkedAt }),
      (error: unknown) => {
        if (!(error instanceof PlatformCallError)) throw error;
        return this.#keep(posId, { state: 'unchecked', pos: null, checkedAt });
      },
    );
    const running = { posId, promise };
    this.#running = running;
    void promise.finally(() => {
      if (this.#running === running) this.#running = null;
    }).catch(() => undefined);
    return promise;
  }

  /** What the kiosk learned about `posId` otherwise: the POS (chosen, created), or null (a charge's pos_not_found). */
  record(posId: string, pos: PlatformPos | null): void {
    this.#keep(posId, { state: pos ? 'found' : 'not_found', pos, checkedAt: this.clock.now() });
  }

  /** The last answer for `posId`, fresh or not. */
  last(posId: string): PosCheckResult | null {
    return this.#entry?.posId === posId ? this.#entry.result : null;
  }

  #keep(posId: string, result: PosCheckResult): PosCheckResult {
    this.#entry = { posId, result };
    return result;
  }
}
