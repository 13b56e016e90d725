import { randomFillSync } from 'node:crypto';
import type { Random } from '../node-common/time.ts';

// Random source, injectable for repeatable tests (style guide 7); one Random for every process.
export type { Random } from '../node-common/time.ts';

const BYTES_PER_DRAW = 6;
const DRAWS_PER_FILL = 1024;

/**
 * The default source: cryptographic, uniform over the multiples of 2^-47 in [0, 1), the same values and odds as
 * crypto.randomInt(0, 2 ** 47) / 2 ** 47. It reads 48 random bits a draw from a buffer filled 1024 draws at a time,
 * because an order takes about 80 draws and randomInt's per-call checks showed in the create-order profile (issue 7).
 */
export function cryptoRandom(): Random {
  const pool = Buffer.alloc(BYTES_PER_DRAW * DRAWS_PER_FILL);
  let at = pool.length;
  const refill = () => {
    randomFillSync(pool);
    at = 0;
  };
  const random: Random = () => {
    if (at + BYTES_PER_DRAW > pool.length) refill();
    // The same value as Math.floor(pool.readUIntBE(at, 6) / 2) / 2 ** 47, read from the bytes directly: readUIntBE's
    // per-call checks showed in the create-order profile again (issue 14). High 16 bits, then the low 32 halved.
    const high = ((pool[at] as number) << 8) | (pool[at + 1] as number);
    const low = (((pool[at + 2] as number) << 24) | ((pool[at + 3] as number) << 16) | ((pool[at + 4] as number) << 8) | (pool[at + 5] as number)) >>> 0;
    at += BYTES_PER_DRAW;
    return (high * 2 ** 31 + (low >>> 1)) / 2 ** 47;
  };
  // The same pool a byte at a time, for IdGenerator (issue 14: ids without a float per character).
  byteSources.set(random, () => {
    if (at === pool.length) refill();
    return pool[at++] as number;
  });
  return random;
}

/**
 * The byte source behind each cryptoRandom() (issue 14 throughput profile: an order's three ids took about 80 draws,
 * each a float, a floor and a one-character string). An injected Random (seeded, in tests) has none and keeps the
 * draw-per-character path, so its ids stay what that Random makes them.
 */
const byteSources = new WeakMap<Random, () => number>();

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

function pick(random: Random, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** One scratch buffer for pickBytes: ids are made one at a time, and the text is copied out of it. */
const scratch = Buffer.alloc(64);

/**
 * pick from random bytes: uniform over the alphabet (a byte at or above the largest multiple of its length is drawn
 * again, so no character is likelier), written into a buffer and read back as one string instead of one per character.
 */
function pickBytes(byte: () => number, alphabet: string, length: number, prefix = ''): string {
  const size = alphabet.length;
  const limit = 256 - (256 % size);
  // The prefix (ORDTST…) is written into the buffer too, so the id is one flat string rather than a concatenation that
  // the engine flattens the first time the id is hashed as a map key (issue 14 round 3).
  const start = scratch.write(prefix, 0, 'latin1');
  const end = start + length;
  for (let i = start; i < end; ) {
    const b = byte();
    if (b < limit) scratch[i++] = alphabet.charCodeAt(b % size);
  }
  return scratch.toString('latin1', 0, end);
}

const DASH = 0x2d;

/**
 * IdGenerator.uuid from a byte source, written into the scratch buffer with its dashes: the same draws and the same
 * text as the slices-and-template form, but one flat string per QR id instead of a tree of nine that every order kept
 * until the id was first hashed (issue 14 round 3). Every byte is taken: 256 is a multiple of 16.
 */
export function uuidBytes(byte: () => number, random: Random): string {
  let at = 0;
  for (let digit = 0; digit < 32; digit += 1) {
    if (at === 8 || at === 13 || at === 18 || at === 23) scratch[at++] = DASH;
    scratch[at++] = HEX.charCodeAt(byte() % 16);
  }
  scratch[14] = 0x34; // '4': digit 12, the version
  scratch[19] = '89ab'.charCodeAt(Math.floor(random() * 4)); // digit 16, the variant
  return scratch.toString('latin1', 0, 36);
}

export class IdGenerator {
  readonly #byte: (() => number) | undefined;
  constructor(private readonly random: Random) {
    this.#byte = byteSources.get(random);
  }

  #pick(alphabet: string, length: number, prefix = ''): string {
    return this.#byte !== undefined && prefix.length + length <= scratch.length ? pickBytes(this.#byte, alphabet, length, prefix) : prefix + pick(this.random, alphabet, length);
  }

  /** platform-facts: ORD + 26 uppercase alphanumerics; TEST credentials give ORDTST (still 29 characters). */
  orderId(): string {
    return this.#pick(ALNUM, 23, 'ORDTST');
  }
  /**
   * issue 26, documented profile: orders made with TEST credentials are ORDTST + 26 (32 characters), as the official
   * Node SDK's tests and captured test notifications show (platform-facts "Identifiers and formats").
   */
  documentedOrderId(): string {
    return this.#pick(ALNUM, 26, 'ORDTST');
  }
  /** platform-facts (decision): PAY… and REF…, the same 29-character shape. */
  paymentTransactionId(): string {
    return this.#pick(ALNUM, 23, 'PAYTST');
  }
  refundId(): string {
    return this.#pick(ALNUM, 23, 'REFTST');
  }
  hex(length: number): string {
    return this.#pick(HEX, length);
  }
  alnum(length: number): string {
    return this.#pick(ALNUM + 'abcdefghijklmnopqrstuvwxyz', length);
  }
  digits(length: number): string {
    return String(1 + Math.floor(this.random() * 9)) + this.#pick('0123456789', length - 1);
  }
  /** digits(length) that `taken` does not hold yet: a new record's numeric id (stores, POS, legacy resources). */
  unusedDigits(length: number, taken: { has(id: string): boolean } | null = null): string {
    let id = this.digits(length);
    while (taken?.has(id)) id = this.digits(length);
    return id;
  }
  uuid(): string {
    // 32 hex digits drawn, then the variant: digit 12 becomes the version 4 and digit 16 the variant (RFC 4122).
    if (this.#byte !== undefined) return uuidBytes(this.#byte, this.random);
    const h = this.hex(32);
    const variant = '89ab'[Math.floor(this.random() * 4)] as string;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}
