/**
 * Limits on the platform calls IPN makes (issue 12): an IPN is unsigned and carries only (topic, id), and each one costs
 * a lookup with the relay's token, so a flood of them must not become a flood of platform calls. Three bounds:
 * - at most `concurrency` lookups in flight;
 * - at most `perSecond` lookups started per second (retries included), evenly spaced;
 * - at most `concurrency + queue` IPN jobs outstanding (waiting, in flight or waiting to retry); beyond that the IPN is
 *   refused with 503 so the platform retries it later (platform-facts "IPN": same 15 min rules as webhooks).
 * A (topic, id) whose lookup has not started yet is looked up once however often it is notified meanwhile: that
 * lookup will read the resource as it is then.
 */
export interface IpnLimits {
  concurrency: number;
  queue: number;
  perSecond: number;
}

export const DEFAULT_IPN_LIMITS: IpnLimits = { concurrency: 4, queue: 256, perSecond: 10 };

/** What an IPN job is given: a way to wait for its turn, and to say it will try again later. */
export interface LookupTicket {
  /** Resolves when the job may call the platform, with the function that ends the call; null once the relay closes. */
  turn(): Promise<(() => void) | null>;
  /**
   * Called before waiting to retry. False when another job for the same (topic, id) is already waiting: that one will
   * read the resource later anyway, so this one ends instead of retrying.
   */
  retryLater(): boolean;
}

export type Offer = 'accepted' | 'duplicate' | 'full';

interface Job {
  key: string;
}

export class IpnLookups {
  readonly #limits: IpnLimits;
  readonly #now: () => number;
  readonly #spacingMs: number;
  /** Jobs accepted and not finished. */
  #outstanding = 0;
  /** Per (topic, id), the job that will call the platform next (not started, or waiting to retry). */
  readonly #waiting = new Map<string, Job>();
  #active = 0;
  readonly #queue: Array<(release: (() => void) | null) => void> = [];
  /** The earliest time (on #now) the next lookup may start. */
  #nextAt = Number.NEGATIVE_INFINITY;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  /** `now` is a monotonic clock in ms (real time: a rate is about the platform's load, not the business clock). */
  constructor(limits: IpnLimits, now: () => number = () => performance.now()) {
    for (const [name, value] of Object.entries(limits)) {
      if (!(Number.isFinite(value) && value > 0) || (name !== 'perSecond' && !Number.isInteger(value))) throw new Error(`IPN limit ${name} must be a positive number, got ${value}`);
    }
    this.#limits = limits;
    this.#now = now;
    this.#spacingMs = 1000 / limits.perSecond;
  }

  /** Jobs accepted and not finished (tests, metrics). */
  get outstanding(): number {
    return this.#outstanding;
  }

  /**
   * Takes a job for `key` unless one for it is waiting ('duplicate') or the bound is reached ('full'). An accepted job
   * runs at once and calls ticket.turn() before each platform call; `done` resolves when it has finished.
   */
  offer(key: string, job: (ticket: LookupTicket) => Promise<void>): { offer: Offer; done: Promise<void> } {
    if (this.#closed) return { offer: 'full', done: Promise.resolve() };
    // Before the bound: a duplicate costs nothing, even when the queue is full.
    if (this.#waiting.has(key)) return { offer: 'duplicate', done: Promise.resolve() };
    if (this.#outstanding >= this.#limits.concurrency + this.#limits.queue) return { offer: 'full', done: Promise.resolve() };
    const self: Job = { key };
    this.#outstanding += 1;
    this.#waiting.set(key, self);
    const ticket: LookupTicket = {
      turn: async () => {
        const release = await this.#acquire();
        if (this.#waiting.get(key) === self) this.#waiting.delete(key);
        return release;
      },
      retryLater: () => {
        const other = this.#waiting.get(key);
        if (other && other !== self) return false;
        this.#waiting.set(key, self);
        return true;
      },
    };
    const done = (async () => {
      try {
        await job(ticket);
      } finally {
        this.#outstanding -= 1;
        if (this.#waiting.get(key) === self) this.#waiting.delete(key);
      }
    })();
    return { offer: 'accepted', done };
  }

  /** Ends every wait: jobs waiting for their turn get null and stop. */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    for (const grant of this.#queue.splice(0)) grant(null);
  }

  #acquire(): Promise<(() => void) | null> {
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.#queue.push(resolve);
      this.#pump();
    });
  }

  /** Grants turns in arrival order while a slot is free and the rate allows; otherwise waits for the next start time. */
  #pump(): void {
    while (!this.#closed && this.#queue.length > 0 && this.#active < this.#limits.concurrency) {
      const now = this.#now();
      if (now < this.#nextAt) {
        if (!this.#timer) {
          this.#timer = setTimeout(() => {
            this.#timer = null;
            this.#pump();
          }, Math.ceil(this.#nextAt - now));
        }
        return;
      }
      this.#nextAt = now + this.#spacingMs;
      const grant = this.#queue.shift() as (release: (() => void) | null) => void;
      this.#active += 1;
      let released = false;
      grant(() => {
        if (released) return;
        released = true;
        this.#active -= 1;
        this.#pump();
      });
    }
  }
}
