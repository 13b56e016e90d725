// Settings (typed JSON values, the key-value stores others build on) and the audit log: who cancelled, refunded or
// changed settings, and when. The database never holds a token.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { openKioskDatabase, KioskStoreError } from '../../../../electron/core/store/database.ts';
import { DamagedRowError } from '../../../../electron/core/store/row-reader.ts';
import { SettingsRepo } from '../../../../electron/core/store/settings-repo.ts';
import { AuditLog } from '../../../../electron/core/store/audit-log.ts';

let dir: string;
let file: string;
let db: Database.Database;
let now = Date.UTC(2026, 0, 15, 12);
const clock = { now: () => now };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-settings-'));
  file = join(dir, 'kiosk.sqlite');
  db = openKioskDatabase(file);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('settings repo', () => {
  test('typed values round-trip through the file; kv(key) is a small store of one key', () => {
    const settings = new SettingsRepo(db);
    const cursor = settings.kv('relay.cursor', z.string());
    assert.equal(cursor.get(), null);
    cursor.set('evt-42');
    settings.set('kiosk', { posId: 'POS001', expiration: 'PT5M' });
    db.close();
    db = openKioskDatabase(file);
    const reopened = new SettingsRepo(db);
    assert.equal(reopened.kv('relay.cursor', z.string()).get(), 'evt-42');
    assert.deepEqual(reopened.get('kiosk'), { posId: 'POS001', expiration: 'PT5M' });
    reopened.kv('relay.cursor').delete();
    assert.equal(reopened.get('relay.cursor'), null);
  });

  test('a stored value that does not fit its schema, or is not JSON, is a damaged row naming the key', () => {
    const settings = new SettingsRepo(db);
    settings.set('expiration', 'PT5M');
    assert.throws(() => settings.get('expiration', z.number()), (e: unknown) => e instanceof DamagedRowError && e.table === 'settings' && e.rowId === 'expiration');
    db.prepare(`UPDATE settings SET value = '{' WHERE key = 'expiration'`).run();
    assert.throws(() => settings.get('expiration'), /settings\/expiration is damaged: value is not JSON/);
    assert.throws(() => settings.kv('n', z.number()).set('x' as never), KioskStoreError);
  });

  test('a value carrying a platform token is refused: secrets belong in the keychain', () => {
    const settings = new SettingsRepo(db);
    const token = 'TEST-8812345-011512-0123456789abcdef0123456789abcdef-1001';
    assert.throws(() => settings.set('session', { userId: '1001', token }), /keychain/);
    assert.throws(() => settings.set('session', { refresh: 'TG-0123456789abcdef01234567-1001' }), /keychain/);
    assert.equal(settings.get('session'), null);
  });
});

describe('audit log', () => {
  test('who did what to what, and when, newest first; narrowed to a subject', () => {
    const audit = new AuditLog(db, clock);
    audit.append({ actor: 'manager', action: 'refund.requested', subject: 'ORD1', detail: { amount: '10.00' } });
    now += 60_000;
    audit.append({ actor: 'cashier', action: 'cancel.requested', subject: 'ORD2', detail: {} });
    now += 60_000;
    audit.append({ actor: 'manager', action: 'settings.changed', subject: 'expiration', detail: { from: 'PT5M', to: 'PT10M' } });
    const entries = audit.list(10);
    assert.deepEqual(entries.map((e) => [e.actor, e.action, e.subject, e.at]), [
      ['manager', 'settings.changed', 'expiration', '2026-01-15T12:02:00.000Z'],
      ['cashier', 'cancel.requested', 'ORD2', '2026-01-15T12:01:00.000Z'],
      ['manager', 'refund.requested', 'ORD1', '2026-01-15T12:00:00.000Z'],
    ]);
    assert.deepEqual(audit.list(10, 'ORD1')[0]?.detail, { amount: '10.00' });
    assert.equal(audit.list(1).length, 1);
  });

  test('a damaged detail is an error naming the row; a token in a detail is refused', () => {
    const audit = new AuditLog(db, clock);
    const entry = audit.append({ actor: 'manager', action: 'x', subject: null, detail: {} });
    db.prepare('UPDATE audit SET detail = ? WHERE id = ?').run('[1]', entry.id);
    assert.throws(() => audit.list(), (e: unknown) => e instanceof DamagedRowError && e.table === 'audit' && e.rowId === String(entry.id));
    assert.throws(() => audit.append({ actor: 'm', action: 'y', subject: null, detail: { t: 'APP_USR-1-011512-0123456789abcdef0123456789abcdef-9' } }), /keychain/);
  });
});
