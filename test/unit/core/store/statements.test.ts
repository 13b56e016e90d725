// issue 28: a repository's statements prepared from one table of SQL, and the ones made at run time prepared once each.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { prepareAll, StatementCache } from '../../../../electron/core/store/statements.ts';
import { useKioskDatabase } from '../../../support/kiosk-db.ts';

const kiosk = useKioskDatabase('kiosk-statements-');

describe('statements', () => {
  test('prepareAll prepares each statement of the table under its own name', () => {
    const statements = prepareAll(kiosk.db, { put: 'INSERT INTO settings (key, value) VALUES (?, ?)', read: 'SELECT value FROM settings WHERE key = ?' });
    assert.deepEqual(Object.keys(statements), ['put', 'read']);
    statements.put.run('greeting', '"hola"');
    assert.deepEqual(statements.read.get('greeting'), { value: '"hola"' });
  });

  test('prepareAll throws SQLite\'s error for a statement that does not compile', () => {
    assert.throws(() => prepareAll(kiosk.db, { broken: 'SELECT * FROM no_such_table' }), /no such table/);
  });

  test('StatementCache prepares a text once and answers the same statement after', () => {
    const cache = new StatementCache(kiosk.db);
    const first = cache.get('SELECT count(*) AS n FROM settings');
    assert.equal(cache.get('SELECT count(*) AS n FROM settings'), first);
    assert.notEqual(cache.get('SELECT count(*) AS n FROM audit'), first);
    assert.equal(typeof (first.get() as { n: number }).n, 'number');
  });
});
