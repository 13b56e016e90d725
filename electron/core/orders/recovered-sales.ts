import type { KeyValue } from '../store/settings-repo.ts';

/**
 * issue 27 item 6: the orders crash recovery made (a create sent again at start, answered with the order it had made):
 * sales the cashier may have given up on, which must never sit open beside a new charge for the same sale. The next
 * charge resumes one that is the same sale, and withdraws any other (api/sale.ts); the Sale screen shows the newest
 * waiting one on load, with its cancel. Kept in the settings table, so a second restart does not forget them.
 */
export class RecoveredSales {
  constructor(private readonly kv: KeyValue<string[]>) {}

  /** The ids still to be decided, oldest first. */
  list(): string[] {
    const ids = this.kv.get();
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  }

  add(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.kv.set([...new Set([...this.list(), ...ids])]);
  }

  forget(id: string): void {
    const rest = this.list().filter((known) => known !== id);
    if (rest.length === 0) this.kv.delete();
    else this.kv.set(rest);
  }
}
