import type Database from 'better-sqlite3';
import { z } from 'zod';
import { DamagedRowError, jsonColumn, readColumns } from './row-reader.ts';
import { prepareAll, type Statements } from './statements.ts';
import { assertNoSecret } from './settings-repo.ts';
import type { Clock } from '../ports.ts';

export interface AuditInput {
  /** Who acted: a role or person ("manager", "cashier"), or the kiosk itself ("outbox", "recovery"). */
  actor: string;
  /** What happened, dotted: "refund.requested", "outbox.drop", "settings.changed". */
  action: string;
  /** What it happened to (an order id, an outbox item id, a settings key), when anything. */
  subject: string | null;
  detail: Record<string, unknown>;
}

export interface AuditEntry extends AuditInput {
  id: number;
  /** ISO 8601, kiosk clock. */
  at: string;
}

const rowSchema = z.object({
  id: z.number().int(),
  at: z.number().int(),
  actor: z.string(),
  action: z.string(),
  subject: z.string().nullable(),
  detail: z.string(),
});

const AUDIT_SQL = {
  insert: 'INSERT INTO audit (at, actor, action, subject, detail) VALUES (?, ?, ?, ?, ?)',
  list: 'SELECT * FROM audit ORDER BY at DESC, id DESC LIMIT ?',
  listFor: 'SELECT * FROM audit WHERE subject = ? ORDER BY at DESC, id DESC LIMIT ?',
} as const;

/** The audit log (issue 4): who cancelled, refunded or changed settings, and when. Append-only. */
export class AuditLog {
  readonly #clock: Clock;
  readonly #statements: Statements<typeof AUDIT_SQL>;

  constructor(db: Database.Database, clock: Clock) {
    this.#clock = clock;
    this.#statements = prepareAll(db, AUDIT_SQL);
  }

  /** Appends one entry; joins the caller's transaction when there is one. Throws KioskStoreError for a detail carrying a token. */
  append(input: AuditInput): AuditEntry {
    if (!input.actor || !input.action) throw new RangeError('an audit entry needs an actor and an action');
    const detail = JSON.stringify(input.detail ?? {});
    assertNoSecret(detail, 'the audit log');
    const at = this.#clock.now();
    const id = Number(this.#statements.insert.run(at, input.actor, input.action, input.subject, detail).lastInsertRowid);
    return { id, at: new Date(at).toISOString(), actor: input.actor, action: input.action, subject: input.subject, detail: input.detail ?? {} };
  }

  /** Newest first; `subject` narrows to one order or item. Throws DamagedRowError for a damaged row. */
  list(limit = 100, subject?: string): AuditEntry[] {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
    const rows = subject === undefined ? this.#statements.list.all(limit) : this.#statements.listFor.all(subject, limit);
    return rows.map(readRow);
  }
}

function readRow(raw: unknown): AuditEntry {
  const row = readColumns('audit', rowSchema, raw);
  const detail = jsonColumn('audit', String(row.id), 'detail', row.detail);
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) throw new DamagedRowError('audit', String(row.id), 'detail is not an object');
  return { id: row.id, at: new Date(row.at).toISOString(), actor: row.actor, action: row.action, subject: row.subject, detail: detail as Record<string, unknown> };
}
