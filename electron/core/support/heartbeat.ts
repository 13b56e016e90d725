import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Clock, Logger } from '../ports.ts';
import type { KioskCore } from '../kiosk-core.ts';
import type { KeyValue } from '../store/settings-repo.ts';
import type { Connectivity, OutboxItem } from '../../../shared/kiosk-api.ts';
import type { Heartbeat } from '../../../shared/schemas/heartbeat.ts';
import { pushProblemErrorCode } from '../../../shared/push-health.ts';
import projectPackage from '../../../package.json' with { type: 'json' };

// issue 18 "Heartbeat": every minute the kiosk tells its relay that it is alive and how it is doing, so a fleet page
// shows which version each counter runs, whether it is reachable and whether its outbox is stuck, without a visit.
// What it sends is shared/schemas/heartbeat.ts and nothing else: no amount, no key, token or PIN.

export const HEARTBEAT_INTERVAL_MS = 60_000;
/** The longest wait between heartbeats to a relay that keeps failing (issue 14 "Idle": back off, do not hammer it). */
export const HEARTBEAT_MAX_BACKOFF_MS = 15 * 60_000;

/**
 * How long after the last of `failures` failed heartbeats in a row the next one is sent (issue 14 "Idle"): the interval
 * after one, then twice as long after each more, up to HEARTBEAT_MAX_BACKOFF_MS.
 */
export function heartbeatBackoffMs(failures: number, intervalMs: number): number {
  if (failures <= 1) return intervalMs;
  return Math.min(intervalMs * 2 ** Math.min(failures - 1, 30), Math.max(HEARTBEAT_MAX_BACKOFF_MS, intervalMs));
}

export interface HeartbeatOptions {
  /** The relay in force now (URL and kiosk key), or null: no heartbeat is sent without one. */
  relay(): { url: string; key: string } | null;
  /** Where the kiosk's random id is kept (its settings): made on the first heartbeat, the same ever after. */
  kioskId: KeyValue<string>;
  posId(): string;
  connectivity(): Connectivity;
  /** The outbox as the screen lists it (done items included; only queued, sending and failed are counted). */
  outbox(): OutboxItem[];
  /** When the newest paid sale was made (UTC ISO 8601), or null. */
  lastSaleAt(): string | null;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch | undefined;
  /** Default: this package's version. */
  version?: string;
  intervalMs?: number;
}

export type HeartbeatResult = { sent: true } | { sent: false; reason: 'no_relay' | 'network' | 'refused'; status?: number };

/**
 * Sends the heartbeat at start() and every intervalMs until stop(). A failed one is logged (once per kind of failure
 * in a row, never the key) and simply replaced by the next: nothing queues up, the relay only keeps the latest.
 * issue 14 "Idle": after failures in a row the next is sent later each time (heartbeatBackoffMs); meanwhile a tick
 * builds no body and makes no request. A change of relay URL or key, or a success, ends the backing off.
 */
export class HeartbeatSender {
  readonly #o: HeartbeatOptions;
  readonly #startedAt: number;
  #timer: NodeJS.Timeout | null = null;
  #inFlight: Promise<HeartbeatResult> | null = null;
  readonly #abort = new AbortController();
  #lastFailure: string | null = null;
  /** Heartbeats failed in a row, to the relay #failedRelay names; when the next may be sent (clock time). */
  #failures = 0;
  #failedRelay = '';
  #nextAttemptAt = 0;

  constructor(options: HeartbeatOptions) {
    this.#o = options;
    this.#startedAt = options.clock.now();
  }

  /** The body of the next heartbeat. */
  heartbeat(): Heartbeat {
    const o = this.#o;
    let kioskId = o.kioskId.get();
    if (kioskId === null) {
      kioskId = randomUUID();
      o.kioskId.set(kioskId);
    }
    const items = o.outbox();
    const connectivity = o.connectivity();
    // The latest problem: the relay's while its stream is down, else the newest failure still in the outbox.
    const failures = items.filter((item) => item.lastError !== null && item.state !== 'done');
    const lastFailure = failures.at(-1)?.lastError;
    return {
      kiosk_id: kioskId,
      pos_id: o.posId(),
      version: o.version ?? projectPackage.version,
      uptime_s: Math.max(0, Math.floor((o.clock.now() - this.#startedAt) / 1000)),
      connectivity: { platform: connectivity.platform, relay: connectivity.relay },
      outbox: {
        queued: items.filter((item) => item.state === 'queued' || item.state === 'sending').length,
        failed: items.filter((item) => item.state === 'failed').length,
      },
      last_sale_at: o.lastSaleAt(),
      // issue 27: a push that does not deliver (push.stale_timestamp, push.no_notifications, ...) is the kiosk's problem too.
      last_error_code: connectivity.relayProblem ?? (connectivity.pushProblem ? pushProblemErrorCode(connectivity.pushProblem) : null) ?? lastFailure?.code ?? null,
    };
  }

  /** Sends one heartbeat now; resolves with what happened, never rejects. */
  beat(): Promise<HeartbeatResult> {
    if (this.#inFlight) return this.#inFlight;
    this.#inFlight = this.#send().finally(() => (this.#inFlight = null));
    return this.#inFlight;
  }

  async #send(): Promise<HeartbeatResult> {
    const relay = this.#o.relay();
    if (!relay) return { sent: false, reason: 'no_relay' };
    let result: HeartbeatResult;
    try {
      const response = await (this.#o.fetch ?? fetch)(heartbeatUrl(relay.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${relay.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(this.heartbeat()),
        signal: AbortSignal.any([this.#abort.signal, AbortSignal.timeout(10_000)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      result = response.ok ? { sent: true } : { sent: false, reason: 'refused', status: response.status };
    } catch {
      result = { sent: false, reason: 'network' };
    }
    const failure = result.sent ? null : `${result.reason}:${result.status ?? ''}`;
    const relayId = `${relay.url}\u0000${relay.key}`;
    this.#failures = result.sent ? 0 : relayId === this.#failedRelay ? this.#failures + 1 : 1;
    this.#failedRelay = relayId;
    this.#nextAttemptAt = this.#o.clock.now() + heartbeatBackoffMs(this.#failures, this.#o.intervalMs ?? HEARTBEAT_INTERVAL_MS);
    if (failure !== null && failure !== this.#lastFailure && !this.#abort.signal.aborted) {
      this.#o.logger.warn('the heartbeat to the relay failed', { reason: result.sent ? null : result.reason, status: result.sent ? null : (result.status ?? null) });
    }
    this.#lastFailure = failure;
    return result;
  }

  /**
   * What the timer does each interval: a heartbeat, unless the last ones failed and the relay is the same and its
   * backoff has not run out (then null: nothing is built or sent).
   */
  beatIfDue(): Promise<HeartbeatResult> | null {
    if (this.#failures > 0 && this.#o.clock.now() < this.#nextAttemptAt) {
      const relay = this.#o.relay();
      if (relay === null || `${relay.url}\u0000${relay.key}` === this.#failedRelay) return null;
    }
    return this.beat();
  }

  start(): void {
    if (this.#timer || this.#abort.signal.aborted) return;
    void this.beat();
    this.#timer = setInterval(() => void this.beatIfDue(), this.#o.intervalMs ?? HEARTBEAT_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Stops the timer and abandons a heartbeat in flight. */
  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#abort.abort();
    await this.#inFlight;
  }
}

/** POST /kiosks/heartbeat on the relay whose base URL (or /events URL) the kiosk has. */
export function heartbeatUrl(relayUrl: string): string {
  const url = new URL(relayUrl);
  url.pathname = url.pathname.replace(/\/events\/?$/, '').replace(/\/?$/, '/kiosks/heartbeat');
  url.search = '';
  return url.toString();
}

/** When the newest paid order (processed, or paid then refunded) was created, as UTC ISO 8601; null before the first. */
export function lastSaleQuery(db: Database.Database): () => string | null {
  const newest = db.prepare<[], { created_date: string }>("SELECT created_date FROM orders WHERE status IN ('processed', 'refunded') ORDER BY created_date DESC LIMIT 1");
  return () => {
    const row = newest.get();
    const at = row ? new Date(row.created_date) : null;
    return at && !Number.isNaN(at.getTime()) ? at.toISOString() : null;
  };
}

/**
 * The core with its heartbeat (issue 18): started after the core starts, stopped before it stops (so the database it
 * reads is still open).
 */
export function withHeartbeat(sender: Pick<HeartbeatSender, 'start' | 'stop'>, core: KioskCore): KioskCore {
  return {
    ...core,
    async start() {
      await core.start();
      sender.start();
    },
    async stop() {
      await sender.stop();
      await core.stop();
    },
  };
}
