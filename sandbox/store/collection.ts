/**
 * The sandbox keeps its state in memory (fast enough for a 2 ms p99 create) and, when given a data file, writes every
 * change through to SQLite so it survives a restart. Domain code mutates a record, then calls put().
 */
export interface Persistence {
  write(kind: string, id: string, value: unknown): void;
  remove(kind: string, id: string): void;
  /**
   * Runs fn so that all its writes land together. When fn throws, the file still ends up as memory now is: the domain
   * mutates records in memory before it fails (an order expires, then the payment is refused), and memory cannot roll
   * back, so the file follows memory rather than keep a state the sandbox no longer shows.
   */
  transaction<T>(fn: () => T): T;
  loadAll(kind: string): Array<[string, unknown]>;
  close(): void;
}

export class Collection<T> {
  readonly #items = new Map<string, T>();
  constructor(
    readonly kind: string,
    private readonly persistence: Persistence | null,
    validate: (raw: unknown, id: string) => T,
  ) {
    if (persistence) {
      for (const [id, raw] of persistence.loadAll(kind)) this.#items.set(id, validate(raw, id));
    }
  }
  get(id: string): T | undefined {
    return this.#items.get(id);
  }
  has(id: string): boolean {
    return this.#items.has(id);
  }
  put(id: string, value: T): T {
    this.#items.set(id, value);
    this.persistence?.write(this.kind, id, value);
    return value;
  }
  delete(id: string): void {
    this.#items.delete(id);
    this.persistence?.remove(this.kind, id);
  }
  values(): IterableIterator<T> {
    return this.#items.values();
  }
  get size(): number {
    return this.#items.size;
  }
}
