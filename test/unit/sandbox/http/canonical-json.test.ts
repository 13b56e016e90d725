// Issue 7 (create-order throughput): canonicalJson was rewritten without map/join. Idempotency fingerprints stored
// before the change are compared with new ones after a restart (seed 4.3), so the text must be exactly the old one.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalJson } from '../../../../sandbox/http/body.ts';

/** The earlier implementation, kept here as the reference. */
function reference(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function randomJson(random: () => number, depth: number): unknown {
  const kind = Math.floor(random() * (depth > 4 ? 5 : 7));
  const text = () => ['', 'a', 'Zé', 'x"y', '\\n', '💳', 'b\u0000c', '10', '__proto__'][Math.floor(random() * 9)] as string;
  if (kind === 0) return null;
  if (kind === 1) return random() < 0.5;
  if (kind === 2) return Math.floor(random() * 2000) / 8 - 100;
  if (kind === 3) return text();
  if (kind === 4) return [];
  if (kind === 5) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = Math.floor(random() * 5); i > 0; i -= 1) object[text() + String(Math.floor(random() * 3))] = randomJson(random, depth + 1);
  return object;
}

describe('canonicalJson (issue 7: same text as before the rewrite)', () => {
  it('matches the earlier implementation on 2,000 random JSON documents, parsed from text as requests are', () => {
    const random = seeded(3);
    for (let i = 0; i < 2000; i += 1) {
      const value = JSON.parse(JSON.stringify(randomJson(random, 0))) as unknown;
      assert.equal(canonicalJson(value), reference(value), JSON.stringify(value));
    }
  });

  it('matches it on the create-order body of the benchmark, whatever the key order', () => {
    const a = JSON.parse('{"type":"qr","total_amount":"150.50","config":{"qr":{"mode":"dynamic","external_pos_id":"POS001"}},"transactions":{"payments":[{"amount":"150.50"}]}}') as unknown;
    const b = JSON.parse('{"transactions":{"payments":[{"amount":"150.50"}]},"config":{"qr":{"external_pos_id":"POS001","mode":"dynamic"}},"total_amount":"150.50","type":"qr"}') as unknown;
    assert.equal(canonicalJson(a), reference(a));
    assert.equal(canonicalJson(a), canonicalJson(b));
  });
});
