// Issue 7 (create-order throughput): the sandbox's default random source reads pooled crypto bytes instead of calling
// crypto.randomInt per draw; it must keep randomInt(0, 2 ** 47) / 2 ** 47's range and grain, and ids keep their shapes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cryptoRandom, IdGenerator } from '../../../sandbox/ids.ts';

describe('cryptoRandom (issue 7: the default random source, pooled)', () => {
  it('draws multiples of 2^-47 in [0, 1), across several refills of its pool, spread over the whole range', () => {
    const random = cryptoRandom();
    const buckets = new Array<number>(10).fill(0);
    const seen = new Set<number>();
    for (let i = 0; i < 5000; i += 1) {
      const value = random();
      assert.ok(value >= 0 && value < 1, String(value));
      assert.ok(Number.isInteger(value * 2 ** 47), String(value));
      buckets[Math.floor(value * 10)]! += 1;
      seen.add(value);
    }
    // 5000 draws over 10 buckets: each far from empty (expected 500), and no repeats among 2^47 values.
    for (const count of buckets) assert.ok(count > 350, buckets.join(','));
    assert.equal(seen.size, 5000);
  });

  it('gives ids their documented shapes (platform-facts: ORD + 26 alphanumerics; UUID v4)', () => {
    const ids = new IdGenerator(cryptoRandom());
    for (let i = 0; i < 200; i += 1) {
      assert.match(ids.orderId(), /^ORDTST[A-Z0-9]{23}$/);
      assert.match(ids.uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.match(ids.digits(9), /^[1-9][0-9]{8}$/);
    }
  });
});

describe('IdGenerator.uuid (issue 7: built without split/join)', () => {
  it('gives, for the same draws, the UUID the array form gave', () => {
    const draws = Array.from({ length: 33 }, (_, i) => ((i * 7919) % 97) / 97);
    const replay = () => {
      let at = 0;
      return () => draws[at++ % draws.length] as number;
    };
    // The earlier construction, as the reference: 32 hex draws, digit 12 set to 4, digit 16 to the variant draw.
    const random = replay();
    const h = Array.from({ length: 32 }, () => '0123456789abcdef'[Math.floor(random() * 16)] as string);
    h[12] = '4';
    h[16] = '89ab'[Math.floor(random() * 4)] as string;
    const s = h.join('');
    const expected = `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
    assert.equal(new IdGenerator(replay()).uuid(), expected);
  });
});
