// issue 14 "cold start": the renderer takes the first screen's answers from its page once each, by method and input,
// forgets the rest when told (they are the state when the page was served), and treats a damaged element as none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { takeFirstReads, type PageElements } from '../../../renderer/src/lib/first-reads.ts';
import { FIRST_READS_ELEMENT_ID, firstReadKey } from '../../../shared/first-reads.ts';

/** The page's element as the renderer finds it: its text, and whether it was taken out of the page. */
function page(text: string | null): { doc: PageElements; removed: () => boolean } {
  let removed = false;
  const element = text === null ? null : { textContent: text, remove: () => (removed = true) };
  const doc: PageElements = { getElementById: (id) => (id === FIRST_READS_ELEMENT_ID ? element : null) };
  return { doc, removed: () => removed };
}

const SETTINGS = { ok: true, value: { language: 'pt-BR' } };
const ORDERS = { ok: true, value: [] };

test('issue 14: each answer is taken once, for its exact method and input, and the element leaves the page', () => {
  const { doc, removed } = page(JSON.stringify({ answers: { [firstReadKey('getSettings', {})]: SETTINGS, [firstReadKey('listOrders', { limit: 10 })]: ORDERS }, stream: 'abc' }));
  const reads = takeFirstReads(doc);
  assert.equal(removed(), true);
  assert.equal(reads.stream, 'abc');
  assert.equal(reads.take('listOrders', { limit: 50 }), undefined, 'another input asks the server');
  assert.deepEqual(reads.take('getSettings', {}), SETTINGS);
  assert.equal(reads.take('getSettings', {}), undefined, 'the same call again asks the server');
  assert.deepEqual(reads.take('listOrders', { limit: 10 }), ORDERS);
});

test('issue 14: answers not taken by the first screen are forgotten when it is drawn', () => {
  const reads = takeFirstReads(page(JSON.stringify({ answers: { [firstReadKey('listCatalog', {})]: { ok: true, value: [] } }, stream: 's' })).doc);
  reads.discard();
  assert.equal(reads.take('listCatalog', {}), undefined);
});

test('issue 14: no element, an empty one or a damaged one means no answers and no stream token', () => {
  for (const text of [null, '', '{"answers": ', '[1]', '{"answers": 3, "stream": 4}']) {
    const reads = takeFirstReads(page(text).doc);
    assert.equal(reads.take('getSettings', {}), undefined, String(text));
    assert.equal(reads.stream, null, String(text));
  }
});
