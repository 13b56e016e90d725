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
  return () => {
    if (at === pool.length) {
      randomFillSync(pool);
      at = 0;
    }
    // The same value as Math.floor(pool.readUIntBE(at, 6) / 2) / 2 ** 47, read from the bytes directly: readUIntBE's
    // per-call checks showed in the create-order profile again (issue 14). High 16 bits, then the low 32 halved.
    const high = ((pool[at] as number) << 8) | (pool[at + 1] as number);
    const low = (((pool[at + 2] as number) << 24) | ((pool[at + 3] as number) << 16) | ((pool[at + 4] as number) << 8) | (pool[at + 5] as number)) >>> 0;
    at += BYTES_PER_DRAW;
    return (high * 2 ** 31 + (low >>> 1)) / 2 ** 47;
  };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';

function pick(random: Random, alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

export class IdGenerator {
  constructor(private readonly random: Random) {}

  /** platform-facts: ORD + 26 uppercase alphanumerics; TEST credentials give ORDTST (still 29 characters). */
  orderId(): string {
    return 'ORDTST' + pick(this.random, ALNUM, 23);
  }
  /** platform-facts (decision): PAY… and REF…, the same 29-character shape. */
  paymentTransactionId(): string {
    return 'PAYTST' + pick(this.random, ALNUM, 23);
  }
  refundId(): string {
    return 'REFTST' + pick(this.random, ALNUM, 23);
  }
  hex(length: number): string {
    return pick(this.random, HEX, length);
  }
  alnum(length: number): string {
    return pick(this.random, ALNUM + 'abcdefghijklmnopqrstuvwxyz', length);
  }
  digits(length: number): string {
    return String(1 + Math.floor(this.random() * 9)) + pick(this.random, '0123456789', length - 1);
  }
  uuid(): string {
    // 32 hex digits drawn, then the variant: digit 12 becomes the version 4 and digit 16 the variant (RFC 4122).
    const h = this.hex(32);
    const variant = '89ab'[Math.floor(this.random() * 4)] as string;
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}
