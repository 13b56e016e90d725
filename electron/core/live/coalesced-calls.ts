interface Slot<T> {
  running: Promise<T>;
  /** The one call queued behind the running one, shared by everyone who asked meanwhile. */
  next: Promise<T> | null;
}

/**
 * One call in flight per key, plus at most one queued behind it (issue 12: a burst of relay events about one order
 * costs two GETs, not one per event, so forged events cannot multiply platform calls).
 *
 * A caller never gets the answer of a call that started before it asked (that answer may predate the change it was
 * told of): when a call is running, it gets the queued one, which starts once the running one settled; everyone who
 * asks while that one is still queued shares it. Rejections reach every caller of that call and never the next one.
 */
export class CoalescedCalls<T> {
  readonly #slots = new Map<string, Slot<T>>();

  run(key: string, call: () => Promise<T>): Promise<T> {
    const slot = this.#slots.get(key);
    if (!slot) {
      const fresh: Slot<T> = { running: Promise.resolve() as Promise<T>, next: null };
      this.#slots.set(key, fresh);
      return this.#launch(key, fresh, call);
    }
    if (!slot.next) {
      const settled = slot.running.then(
        () => undefined,
        () => undefined,
      );
      slot.next = settled.then(() => {
        slot.next = null;
        return this.#launch(key, slot, call);
      });
    }
    return slot.next;
  }

  /** Keys with a call running or queued (for tests and status). */
  get size(): number {
    return this.#slots.size;
  }

  #launch(key: string, slot: Slot<T>, call: () => Promise<T>): Promise<T> {
    const running = (async () => call())();
    slot.running = running;
    const done = () => {
      // The slot goes once its last call settled with nothing queued behind it.
      if (slot.running === running && slot.next === null && this.#slots.get(key) === slot) this.#slots.delete(key);
    };
    running.then(done, done);
    return running;
  }
}
