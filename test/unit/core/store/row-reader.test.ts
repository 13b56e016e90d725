// issue 28: the one way the store's repositories read a row back (style guide 10): a row that does not read is a
// DamagedRowError naming its table, its key and what is wrong, never a best guess.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { DamagedRowError, jsonColumn, oneOrNull, readColumns } from '../../../../electron/core/store/row-reader.ts';
import { KioskStoreError } from '../../../../electron/core/store/database.ts';

const damaged = (table: string, rowId: string, reason: RegExp) => (error: unknown) =>
  error instanceof DamagedRowError && error.table === table && error.rowId === rowId && reason.test(error.reason);

describe('row reader', () => {
  const schema = z.object({ id: z.string(), total: z.number().int() });

  test('readColumns answers the columns as the schema reads them, or names the row and the column that does not fit', () => {
    assert.deepEqual(readColumns('sales', schema, { id: 's1', total: 5 }), { id: 's1', total: 5 });
    assert.throws(() => readColumns('sales', schema, { id: 's1', total: 'five' }), damaged('sales', 's1', /^total /));
    assert.throws(() => readColumns('sales', schema, { total: 5 }), damaged('sales', '?', /^id /), 'no key: named "?"');
    assert.throws(() => readColumns('tills', schema, { shift_id: 'sh1' }, 'shift_id'), damaged('tills', 'sh1', /id/), 'by another key column');
  });

  test('the error is a KioskStoreError with the message the API shows', () => {
    const error = new DamagedRowError('catalog', 'c1', 'title has control characters');
    assert.ok(error instanceof KioskStoreError);
    assert.equal(error.name, 'DamagedRowError');
    assert.equal(error.message, 'the kiosk database row catalog/c1 is damaged: title has control characters');
  });

  test('jsonColumn parses the text, checks it when given a schema, and names the column when it cannot', () => {
    assert.deepEqual(jsonColumn('audit', '7', 'detail', '{"a":1}'), { a: 1 });
    assert.throws(() => jsonColumn('audit', '7', 'detail', '{"a":'), damaged('audit', '7', /^detail is not JSON$/));
    const counts = z.array(z.number().int());
    assert.deepEqual(jsonColumn('tills', 'sh1', 'denominations', '[1,2]', counts), [1, 2]);
    assert.throws(() => jsonColumn('tills', 'sh1', 'denominations', '[1,"2"]', counts), damaged('tills', 'sh1', /^denominations: 1 /));
  });

  test('oneOrNull reads a row that is there and answers null for none', () => {
    const read = (raw: unknown) => readColumns('sales', schema, raw).total;
    assert.equal(oneOrNull({ id: 's1', total: 3 }, read), 3);
    assert.equal(oneOrNull(undefined, read), null);
    assert.throws(() => oneOrNull({ id: 's1' }, read), DamagedRowError, 'a damaged row is not taken for a missing one');
  });
});
