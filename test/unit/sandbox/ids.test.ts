// Issue 7 (create-order throughput): the sandbox's default random source reads pooled crypto bytes instead of calling
// crypto.randomInt per draw; it must keep randomInt(0, 2 ** 47) / 2 ** 47's range and grain, and ids keep their shapes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cryptoRandom, IdGenerator, uuidBytes } from '../../../sandbox/ids.ts';

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
      // issue 14 round 3: the prefix is written with the drawn characters, and ids do not repeat.
      assert.match(ids.paymentTransactionId(), /^PAYTST[A-Z0-9]{23}$/);
      assert.match(ids.refundId(), /^REFTST[A-Z0-9]{23}$/);
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

describe('IdGenerator over cryptoRandom (issue 14: ids from pooled bytes, one string each)', () => {
  it('draws every character of the alphabet with even odds, across refills, and keeps each id shape', () => {
    const ids = new IdGenerator(cryptoRandom());
    const counts = new Map<string, number>();
    // 2,000 order ids = 46,000 characters, several refills of the 6 KiB pool (mixed with float draws by digits()).
    for (let i = 0; i < 2000; i += 1) {
      const id = ids.orderId();
      assert.match(id, /^ORDTST[A-Z0-9]{23}$/);
      for (const char of id.slice(6)) counts.set(char, (counts.get(char) ?? 0) + 1);
      assert.match(ids.digits(9), /^[1-9][0-9]{8}$/);
      assert.match(ids.alnum(40), /^[A-Za-z0-9]{40}$/);
    }
    // 36 characters, about 1,278 each: a byte taken modulo 36 without the redraw would favour the first 4 by 1/7.
    assert.equal(counts.size, 36);
    for (const [char, count] of counts) assert.ok(count > 1100 && count < 1460, `${char}: ${count}`);
  });
});

describe('uuidBytes (issue 14 round 3: the pooled-bytes UUID written as one string)', () => {
  it('gives, for the same bytes and variant draw, the UUID of the slices-and-template form', () => {
    for (let seed = 0; seed < 50; seed += 1) {
      const bytes = Array.from({ length: 32 }, (_, i) => (seed * 131 + i * 37) % 256);
      const variantDraw = (seed % 8) / 8;
      let at = 0;
      const uuid = uuidBytes(() => bytes[at++] as number, () => variantDraw);
      assert.equal(at, 32);
      // The form IdGenerator.uuid has for an injected Random: 32 hex digits, then the version and the variant.
      const h = bytes.map((b) => '0123456789abcdef'[b % 16]).join('');
      const variant = '89ab'[Math.floor(variantDraw * 4)] as string;
      assert.equal(uuid, `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`);
    }
  });
});
