// issue 17 / 28: a person on a row is two columns, <role>_id and <role>_name, read and written by one helper each.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { personColumns, personIn, personParams } from '../../../../electron/core/store/person-columns.ts';

describe('person columns', () => {
  const schema = z.object({ ...personColumns('counted_by') });

  test('the pair reads as the person, or as nobody when either column is empty', () => {
    const row = schema.parse({ counted_by_id: 'p1', counted_by_name: 'Ana' });
    assert.deepEqual(personIn(row, 'counted_by'), { id: 'p1', name: 'Ana' });
    assert.equal(personIn(schema.parse({ counted_by_id: null, counted_by_name: null }), 'counted_by'), null);
    assert.equal(personIn(schema.parse({ counted_by_id: 'p1', counted_by_name: null }), 'counted_by'), null);
  });

  test('a column that is not text or null does not read', () => {
    assert.equal(schema.safeParse({ counted_by_id: 7, counted_by_name: 'Ana' }).success, false);
    assert.equal(schema.safeParse({ counted_by_name: 'Ana' }).success, false, 'a missing column is not nobody');
  });

  test('a person is written as the parameters <name>Id and <name>Name, nobody as two nulls', () => {
    assert.deepEqual(personParams('approvedBy', { id: 'p2', name: 'Bea' }), { approvedById: 'p2', approvedByName: 'Bea' });
    assert.deepEqual(personParams('by', null), { byId: null, byName: null });
  });
});
