import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { KioskStoreError } from './database.ts';
import { DamagedRowError, jsonColumn } from './row-reader.ts';

/** One key of the settings table as a small typed store (the session meta, the relay cursor, a setting). */
export interface KeyValue<T> {
  /** The stored value, or null when there is none. Throws DamagedRowError when the stored value does not fit. */
  get(): T | null;
  set(value: T): void;
  delete(): void;
}

/**
 * Shapes of the platform's secrets (platform-facts "Identifiers and formats"): the database never holds a token or a
 * client secret (issue 4), so a value carrying one is refused rather than written, whoever the caller is.
 */
const SECRET_SHAPES = [/\b(?:TEST|APP_USR)-[0-9A-Za-z]+-\d{6}-[0-9a-f]{32}-\d+\b/, /\bTG-[0-9a-f]{16,}-\d+\b/];

export function assertNoSecret(text: string, where: string): void {
  if (SECRET_SHAPES.some((shape) => shape.test(text))) {
    throw new KioskStoreError(`refusing to write what looks like a platform token to ${where}: secrets belong in the keychain`);
  }
}

/**
 * The settings table: JSON values by key. Values are re-validated on read when a schema is given; a value that is not
 * JSON or does not fit is a DamagedRowError naming the key. Audit settings changes with AuditLog (the caller knows who).
 */
export class SettingsRepo {
  readonly #get: Database.Statement;
  readonly #set: Database.Statement;
  readonly #delete: Database.Statement;

  constructor(db: Database.Database) {
    this.#get = db.prepare('SELECT value FROM settings WHERE key = ?');
    this.#set = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    this.#delete = db.prepare('DELETE FROM settings WHERE key = ?');
  }

  get<T = unknown>(key: string, schema?: z.ZodType<T>): T | null {
    const row = this.#get.get(key) as { value: unknown } | undefined;
    if (row === undefined) return null;
    if (typeof row.value !== 'string') throw new DamagedRowError('settings', key, 'value is not text');
    return schema ? jsonColumn('settings', key, 'value', row.value, schema) : (jsonColumn('settings', key, 'value', row.value) as T);
  }

  /** Stores `value` as JSON (undefined deletes). Throws KioskStoreError for a value JSON cannot hold or one carrying a token. */
  set<T>(key: string, value: T, schema?: z.ZodType<T>): void {
    if (value === undefined) {
      this.delete(key);
      return;
    }
    if (schema) {
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw new KioskStoreError(`refusing to store setting ${key}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    const text = JSON.stringify(value);
    if (typeof text !== 'string') throw new KioskStoreError(`refusing to store setting ${key}: not JSON`);
    assertNoSecret(text, `setting ${key}`);
    this.#set.run(key, text);
  }

  delete(key: string): void {
    this.#delete.run(key);
  }

  kv<T>(key: string, schema?: z.ZodType<T>): KeyValue<T> {
    return {
      get: () => this.get(key, schema),
      set: (value: T) => this.set(key, value, schema),
      delete: () => this.delete(key),
    };
  }
}

/** Adapts a settings key to the load/save stores of the session and the PINs (people/pin.ts PinStore); null clears it. */
export function loadSave<T>(kv: KeyValue<T>): { load(): T | null; save(value: T | null): void } {
  return { load: () => kv.get(), save: (value) => (value === null ? kv.delete() : kv.set(value)) };
}
