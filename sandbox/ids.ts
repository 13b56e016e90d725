/** Random source, injectable for repeatable tests (style guide 7). Returns a float in [0, 1). */
export type Random = () => number;

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
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = '89ab'[Math.floor(this.random() * 4)] as string;
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}
