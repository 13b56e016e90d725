import type { Clock, Logger } from '../ports.ts';
import { notificationHealthSchema, type NotificationHealth, type PushProblem } from '../../../shared/push-health.ts';

// issue 27 item 1: "a push is healthy only if it has delivered events for this seller recently, or the relay reports
// that it accepts the platform's notifications". A stream that is open and answers its heartbeats says nothing about
// whether the platform's notifications get through: with the platform's clock 400 s ahead, or a rotated secret, the
// relay refuses every one while the stream stays live. What this decides is how the screens word the push and how often
// the poller checks a waiting sale (order-poller.ts); a waiting sale is checked within the bound either way.

/** "Recently": an order event from the relay within this is proof enough that notifications get through. */
export const PUSH_RECENT_MS = 10 * 60_000;
/**
 * A sale the kiosk's own GET found paid counts as "paid with no notification" only if no event came within this after:
 * the GET may simply have been quicker than a healthy push, and a banner that flashes for that would be a false alarm.
 */
export const SILENT_PAID_GRACE_MS = 10_000;
/** How often the relay's report is read while a sale waits (and at most how old a report may be to count). */
export const RELAY_REPORT_EVERY_MS = 30_000;

export interface PushHealthOptions {
  /** The relay in force (base or /events URL and kiosk key), or null: no relay, no push to judge. */
  relay: () => { url: string; key: string } | null;
  clock: Clock;
  logger: Logger;
  fetch?: typeof fetch;
  /** Told when problem() changes. */
  onChange?: (problem: PushProblem | null) => void;
}

/**
 * What the kiosk knows of its push: events delivered, sales its own GETs found paid with no event, and the relay's
 * report (GET /notifications/health, read at most every RELAY_REPORT_EVERY_MS while a sale waits, and at once when a
 * sale is found paid without an event). Never throws; a report that cannot be read counts as no report.
 */
export class PushHealth {
  readonly #o: PushHealthOptions;
  readonly #startedAt: number;
  #lastEventAt: number | null = null;
  /** When a GET found a sale paid that no event had announced (after #lastEventAt, or it would be cleared). */
  #silentPaidAt: number | null = null;
  #report: { health: NotificationHealth; at: number } | null = null;
  #lastAskedAt = -Infinity;
  #inFlight: Promise<void> | null = null;
  #reported = 'null';
  #abort = new AbortController();
  #graceTimer: NodeJS.Timeout | null = null;

  constructor(options: PushHealthOptions) {
    this.#o = options;
    this.#startedAt = options.clock.now();
  }

  /** The relay delivered an order event (the relay routes only this seller's to this kiosk's key). */
  eventDelivered(): void {
    this.#lastEventAt = this.#o.clock.now();
    this.#silentPaidAt = null;
    this.#clearGrace();
    this.#changed();
    // The relay accepted a notification since its report named a refusal: read it again, so the counts are current.
    if (this.#report?.health.problem) void this.refresh();
  }

  /** A GET of the kiosk's own found a waiting sale paid before any event said so: the push may be silent. */
  paidWithoutEvent(): void {
    this.#silentPaidAt ??= this.#o.clock.now();
    // Looked at again once the grace is over (an event meanwhile clears it).
    if (this.#graceTimer === null) {
      this.#graceTimer = setTimeout(() => {
        this.#graceTimer = null;
        this.#changed();
      }, SILENT_PAID_GRACE_MS);
      this.#graceTimer.unref();
    }
    void this.refresh();
  }

  /** A sale is waiting: read the relay's report if the last one is older than RELAY_REPORT_EVERY_MS. */
  saleWaiting(): void {
    if (this.#o.clock.now() - this.#lastAskedAt >= RELAY_REPORT_EVERY_MS) void this.refresh();
  }

  /** Whether the push can be trusted now: an event recently, or a fresh report of the relay that shows no refusal. */
  healthy(): boolean {
    const now = this.#o.clock.now();
    if (this.problem() !== null) return false;
    if (this.#lastEventAt !== null && now - this.#lastEventAt <= PUSH_RECENT_MS) return true;
    const report = this.#report;
    return report !== null && now - report.at <= 2 * RELAY_REPORT_EVERY_MS && report.health.problem === null && report.health.last_accepted_at !== null;
  }

  /**
   * What is wrong, for the status line: the refusal the relay's latest report names (it names the cause), until an
   * event arrives after it or a newer report has none (it is read again while a sale waits: a problem seen stays said
   * while no sale tells otherwise); else "no notifications for N minutes while sales were paid" once a sale was found
   * paid with no event within SILENT_PAID_GRACE_MS.
   */
  problem(): PushProblem | null {
    const now = this.#o.clock.now();
    const report = this.#report;
    if (report !== null && report.health.problem !== null && (this.#lastEventAt === null || this.#lastEventAt < report.at)) {
      const stale = report.health.problem === 'stale_timestamp';
      return { code: report.health.problem, skewSeconds: stale ? report.health.clock_skew_s : null, minutes: null };
    }
    if (this.#silentPaidAt !== null && now - this.#silentPaidAt >= SILENT_PAID_GRACE_MS) {
      const quietSince = this.#lastEventAt ?? this.#startedAt;
      return { code: 'no_notifications', skewSeconds: null, minutes: Math.max(1, Math.floor((now - quietSince) / 60_000)) };
    }
    return null;
  }

  /** Reads the relay's report now (one request at a time); resolves when done, never rejects. */
  refresh(): Promise<void> {
    if (this.#inFlight) return this.#inFlight;
    this.#inFlight = this.#ask().finally(() => (this.#inFlight = null));
    return this.#inFlight;
  }

  /** Abandons a report being read (a later refresh() reads again: the kiosk core may be started again). */
  async stop(): Promise<void> {
    this.#clearGrace();
    const abort = this.#abort;
    this.#abort = new AbortController();
    abort.abort();
    await this.#inFlight;
  }

  async #ask(): Promise<void> {
    const relay = this.#o.relay();
    if (!relay) return;
    this.#lastAskedAt = this.#o.clock.now();
    const stopped = this.#abort.signal;
    try {
      const response = await (this.#o.fetch ?? fetch)(healthUrl(relay.url), { headers: { authorization: `Bearer ${relay.key}` }, signal: AbortSignal.any([stopped, AbortSignal.timeout(5_000)]) });
      const body: unknown = response.ok ? await response.json() : (await response.arrayBuffer(), null);
      const parsed = notificationHealthSchema.safeParse(body);
      // A relay without this route (an older version) answers 404: no report, which is what the kiosk knew before.
      this.#report = parsed.success ? { health: parsed.data, at: this.#o.clock.now() } : null;
    } catch (error) {
      if (stopped.aborted) return;
      this.#report = null;
      this.#o.logger.debug?.("reading the relay's notification report failed", { error: error instanceof Error ? error.name : 'unknown' });
    }
    this.#changed();
  }

  #clearGrace(): void {
    if (this.#graceTimer) clearTimeout(this.#graceTimer);
    this.#graceTimer = null;
  }

  #changed(): void {
    const problem = this.problem();
    const key = JSON.stringify(problem);
    if (key === this.#reported) return;
    this.#reported = key;
    if (problem) this.#o.logger.warn('the push is not delivering the platform notifications', { problem: problem.code, skew_s: problem.skewSeconds, minutes: problem.minutes });
    this.#o.onChange?.(problem);
  }
}

/** GET /notifications/health on the relay whose base URL (or /events URL) the kiosk has. */
export function healthUrl(relayUrl: string): string {
  const url = new URL(relayUrl);
  url.pathname = url.pathname.replace(/\/events\/?$/, '').replace(/\/?$/, '/notifications/health');
  url.search = '';
  return url.toString();
}
