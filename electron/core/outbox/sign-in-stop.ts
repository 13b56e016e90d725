import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Logger } from '../ports.ts';
import { SettingsRepo, type KeyValue } from '../store/settings-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';

/** Why the outbox stopped: the item whose send the platform refused, with what code, and when (kiosk clock, ms). */
const stopRecordSchema = z.object({ item: z.string(), code: z.string(), since: z.number().int() });
type StopRecord = z.infer<typeof stopRecordSchema>;

/** The key of the settings table (a key-value store: store/settings-repo.ts) that holds the stop while it lasts. */
const STOP_KEY = 'outbox.stoppedForSignIn';

export interface SignInStopOptions {
  db: Database.Database;
  audit: AuditLog;
  logger?: Logger | undefined;
  /** The outbox stopped (true) or resumed (false), and, at start, a stop that outlived a restart (true). Must not throw. */
  listener?: ((stopped: boolean) => void) | undefined;
}

/**
 * issue 26 "An authentication refusal stops the outbox": once the platform refused the kiosk's credentials on a send
 * (401, or user_not_authorized) nothing is sent until a new sign-in. issue 28: the stop is kept in the database, so a
 * kiosk restarted before that sign-in does not send again with the refused token. A stored stop that cannot be read
 * counts as a stop (logged): a new sign-in clears it, while sending with refused credentials could not be undone.
 */
export class SignInStop {
  readonly #o: SignInStopOptions;
  readonly #stored: KeyValue<StopRecord>;
  #stopped: boolean;

  constructor(options: SignInStopOptions) {
    this.#o = options;
    this.#stored = new SettingsRepo(options.db).kv(STOP_KEY, stopRecordSchema);
    this.#stopped = this.#read();
  }

  get stopped(): boolean {
    return this.#stopped;
  }

  /** Tells the listener of a stop that outlived a restart (the queue's start), so the status line says it at once. */
  announce(): void {
    if (this.#stopped) this.#o.listener?.(true);
  }

  /**
   * Stops the outbox for the refusal of `sending`'s send: stored with its audit row in one transaction. Only the first
   * refusal counts; returns whether this one stopped it.
   */
  stop(sending: { id: string; orderId: string | null }, code: string, now: number): boolean {
    if (this.#stopped) return false;
    this.#o.db.transaction(() => {
      this.#stored.set({ item: sending.id, code, since: now });
      this.#o.audit.append({ actor: 'outbox', action: 'outbox.stopped', subject: sending.orderId, detail: { item: sending.id, code } });
    })();
    this.#stopped = true;
    this.#o.logger?.warn('outbox: stopped until a new sign-in (the platform refused the credentials)', { item: sending.id, code });
    this.#o.listener?.(true);
    return true;
  }

  /** A new sign-in: the stop is lifted and forgotten. Returns whether the outbox was stopped. */
  resume(): boolean {
    if (!this.#stopped) return false;
    this.#stored.delete();
    this.#stopped = false;
    this.#o.listener?.(false);
    return true;
  }

  #read(): boolean {
    try {
      return this.#stored.get() !== null;
    } catch (error) {
      this.#o.logger?.error('outbox: the stored stop cannot be read; the outbox waits for a new sign-in', { error: String(error) });
      return true;
    }
  }
}
