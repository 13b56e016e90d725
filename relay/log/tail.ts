import type { LoggedEvent } from './event-log.ts';

/**
 * The newest appended events, in id order, also indexed by seller (issue 14 "Relay routing"): a stream woken for its
 * seller reads that seller's recent events without a query and without looking at anyone else's. The tail holds every
 * event after `from` up to the newest it was given, so it can answer for any id in that range and for nothing else;
 * the backends read their store for the rest.
 */
export class EventTail {
  #events: LoggedEvent[] = [];
  readonly #bySeller = new Map<string, LoggedEvent[]>();
  /** Every event after this id, up to #last, is held; null: the tail cannot answer yet. */
  #from: string | null = null;
  #last: string | null = null;
  /**
   * Every event after this id, up to #last, went through push(), dropped from the tail or not; #newest holds each
   * seller's newest of them (one entry per seller that had an event: bounded by the sellers the relay serves). So the
   * tail can also say "nothing of this seller since": issue 14, a kiosk whose seller is quiet while a thousand others
   * are busy falls behind the tail, and must not then read the whole log (on Redis, walk the shared stream) to learn it.
   */
  #seenFrom: string | null = null;
  readonly #newest = new Map<string, string>();

  constructor(
    private readonly size: number,
    /** Orders two ids of the backend (SQLite's integers, Redis's <ms>-<seq>). */
    private readonly compare: (a: string, b: string) => number,
  ) {}

  /** Forgets every event; the tail is complete after `after` (where the caller's reading starts), or after its newest. */
  restart(after: string | null = this.#last ?? this.#from): void {
    this.#events = [];
    this.#bySeller.clear();
    this.#newest.clear();
    this.#from = after;
    this.#last = after;
    this.#seenFrom = after;
  }

  /**
   * The log dropped every event up to `through` (a prune): the tail forgets them too and never answers for an id before
   * it (the store then says `reset`), but keeps what it knows of each seller's newest event after it.
   */
  pruned(through: string): void {
    if (this.#last === null || this.#seenFrom === null || this.compare(through, this.#last) >= 0) {
      this.restart();
      return;
    }
    while (this.#events.length > 0 && this.compare((this.#events[0] as LoggedEvent).id, through) <= 0) this.#dropOldest();
    if (this.compare(through, this.#from as string) > 0) this.#from = through;
    if (this.compare(through, this.#seenFrom) > 0) this.#seenFrom = through;
  }

  /** Adds the next event of the log; events must come in id order and none may be skipped. */
  push(event: LoggedEvent): void {
    if (this.#from === null) return;
    this.#events.push(event);
    const seller = this.#bySeller.get(event.userId);
    if (seller) seller.push(event);
    else this.#bySeller.set(event.userId, [event]);
    this.#last = event.id;
    this.#newest.set(event.userId, event.id);
    if (this.#events.length > this.size) this.#dropOldest();
  }

  #dropOldest(): void {
    const dropped = this.#events.shift() as LoggedEvent;
    // The oldest event of the whole tail is the oldest of its seller's list too.
    const list = this.#bySeller.get(dropped.userId) as LoggedEvent[];
    list.shift();
    if (list.length === 0) this.#bySeller.delete(dropped.userId);
    this.#from = dropped.id;
  }

  /** Events after `after`, at most `limit`, or null when the tail holds no event or cannot tell (`after` out of range). */
  after(after: string, limit: number): LoggedEvent[] | null {
    if (this.#events.length === 0 || !this.#covers(after)) return null;
    const start = this.#firstAfter(this.#events, after);
    return this.#events.slice(start, start + limit);
  }

  /**
   * The seller's events after `after`, at most `limit`, and `through`: the id up to which every event of that seller
   * was returned (the newest id the tail knows when fewer than `limit` came back). Null when `after` is out of range.
   */
  sellerAfter(after: string, userId: string, limit: number): { events: LoggedEvent[]; through: string } | null {
    if (!this.#covers(after)) {
      // Before the tail, but watched: when the seller's newest event is not after `after`, it has none up to #last.
      if (this.#seenFrom === null || this.#last === null || this.compare(after, this.#seenFrom) < 0 || this.compare(after, this.#last) > 0) return null;
      const newest = this.#newest.get(userId);
      return newest === undefined || this.compare(newest, after) <= 0 ? { events: [], through: this.#last } : null;
    }
    const list = this.#bySeller.get(userId) ?? [];
    const start = this.#firstAfter(list, after);
    const events = list.slice(start, start + limit);
    const through = events.length === limit ? (events[limit - 1] as LoggedEvent).id : (this.#last as string);
    return { events, through };
  }

  #covers(after: string): boolean {
    return this.#from !== null && this.#last !== null && this.compare(after, this.#from) >= 0 && this.compare(after, this.#last) <= 0;
  }

  /** The index of the first event of `list` (in id order) whose id is greater than `after`. */
  #firstAfter(list: readonly LoggedEvent[], after: string): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.compare((list[middle] as LoggedEvent).id, after) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
