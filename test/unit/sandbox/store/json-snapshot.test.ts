// Issue 7 (create-order throughput): the idempotency store snapshots response bodies with snapshotJson instead of
// structuredClone. A replay must still show the first response (seed 4.3) whatever later happens to the live objects.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { snapshotJson } from '../../../../sandbox/store/json-snapshot.ts';

describe('snapshotJson (issue 7: a cheaper deep copy of a JSON response body)', () => {
  it('copies a response tree deeply: changing the original afterwards changes nothing in the copy', () => {
    const shared = { id: 'x', tags: ['a', { deep: 1 }] };
    const body = { id: 'ORD1', amount: '1.50', missing: undefined, nothing: null, flags: [true, false, 0, ''], items: [shared], again: shared };
    const copy = snapshotJson(body);
    assert.deepStrictEqual(copy, structuredClone(body));
    shared.tags.push('b');
    (shared.tags[1] as { deep: number }).deep = 2;
    body.flags.pop();
    assert.deepStrictEqual(copy.items[0], { id: 'x', tags: ['a', { deep: 1 }] });
    assert.deepStrictEqual(copy.again, { id: 'x', tags: ['a', { deep: 1 }] });
    assert.equal(copy.flags.length, 4);
    assert.equal(Object.hasOwn(copy, 'missing'), true);
  });

  it('keeps an own "__proto__" key of client JSON as data, not as a prototype', () => {
    const body = JSON.parse('{"doc":{"__proto__":{"polluted":true},"ok":1}}') as { doc: Record<string, unknown> };
    const copy = snapshotJson(body);
    assert.deepStrictEqual(Object.keys(copy.doc), ['__proto__', 'ok']);
    assert.equal(Object.getPrototypeOf(copy.doc), Object.prototype);
    assert.equal((copy.doc as { polluted?: boolean }).polluted, undefined);
    assert.equal(JSON.stringify(copy), JSON.stringify(body));
  });

  it('hands values that are not plain JSON (a Date, a class instance) and very deep trees to structuredClone', () => {
    const date = new Date(0);
    class Point {
      constructor(readonly x: number) {}
    }
    const copy = snapshotJson({ at: date, point: new Point(3) });
    assert.ok(copy.at instanceof Date);
    assert.notEqual(copy.at, date);
    assert.equal(copy.at.getTime(), 0);
    assert.deepStrictEqual(copy.point, structuredClone(new Point(3)));
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i += 1) deep = { next: deep };
    assert.equal(JSON.stringify(snapshotJson(deep)), JSON.stringify(deep));
  });
});
