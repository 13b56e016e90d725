// issue 14: the outbox list on screen stays whole while `outbox.changed` carries only the items that changed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeOutbox } from '../../../renderer/src/lib/outbox-merge.ts';
import type { OutboxItem } from '../../../shared/kiosk-api.ts';

const item = (id: string, createdAt: string, state: OutboxItem['state'] = 'queued'): OutboxItem => ({
  id,
  kind: 'refund',
  orderId: 'ORDTST00000000000000000000001',
  amount: null,
  state,
  attempts: 0,
  createdAt,
  lastError: null,
});

describe('outbox merge', () => {
  test('a changed item replaces the one of its id; a new one joins in creation order; the others stay', () => {
    const list = [item('a', '2026-01-01T10:00:00.000Z'), item('c', '2026-01-01T12:00:00.000Z')];
    const merged = mergeOutbox(list, [item('a', '2026-01-01T10:00:00.000Z', 'sending'), item('b', '2026-01-01T11:00:00.000Z')]);
    assert.deepEqual(
      merged.map((i) => [i.id, i.state]),
      [
        ['a', 'sending'],
        ['b', 'queued'],
        ['c', 'queued'],
      ],
    );
    assert.equal(list[0]?.state, 'queued', 'the list given is not changed');
  });

  test('a dropped item leaves the list', () => {
    const list = [item('a', '2026-01-01T10:00:00.000Z', 'failed'), item('b', '2026-01-01T11:00:00.000Z')];
    assert.deepEqual(
      mergeOutbox(list, [item('a', '2026-01-01T10:00:00.000Z', 'dropped')]).map((i) => i.id),
      ['b'],
    );
  });
});
