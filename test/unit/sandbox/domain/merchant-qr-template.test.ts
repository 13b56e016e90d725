// Issue 7 (create-order throughput): the order path builds its dynamic QR from a per-seller template. It must give
// exactly the payload of shared/emv-qr.ts buildMerchantQr (platform-facts "QR data"), and refuse what it refuses.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildMerchantQr, crc16Ccitt, parseMerchantQr, type MerchantQr } from '../../../../shared/emv-qr.ts';
import { buildMerchantQrFast, crc16 } from '../../../../sandbox/domain/merchant-qr-template.ts';
import { IdGenerator } from '../../../../sandbox/ids.ts';

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const MERCHANTS: Array<Omit<MerchantQr, 'qrId' | 'reference' | 'pointOfInitiation'>> = [
  { currency: 'ARS', countryCode: 'AR', merchantName: 'Sandbox Store 1234', merchantCity: 'CABA' },
  { currency: 'BRL', countryCode: 'BR', merchantName: 'Panadería São João', merchantCity: 'Sao Paulo' },
  { currency: 'CLP', countryCode: 'CL', merchantName: 'A name that is far longer than twenty-five characters', merchantCity: 'Santiago' },
  { currency: 'UYU', countryCode: 'UY', merchantName: '   ', merchantCity: '東京', merchantCategoryCode: '5812' },
  { currency: 'ARS', countryCode: 'AR', merchantName: 'AAAA BBBB 0000 1111', merchantCity: 'City' },
];

describe('buildMerchantQrFast (issue 7: the dynamic order QR from a per-seller template)', () => {
  it('gives the same payload as buildMerchantQr for every seller shape, id and reference tried', () => {
    const ids = new IdGenerator(seeded(7));
    let compared = 0;
    for (const merchant of MERCHANTS) {
      for (const pointOfInitiation of ['dynamic', 'static'] as const) {
        for (const reference of [ids.orderId(), ids.orderId(), 'r', 'x'.repeat(64), 'ref with spaces ~!', 'AAAA', 'BBBB']) {
          const qr = { ...merchant, pointOfInitiation, qrId: ids.uuid(), reference };
          const fast = buildMerchantQrFast(qr);
          assert.equal(fast, buildMerchantQr(qr), JSON.stringify(qr));
          assert.equal(parseMerchantQr(fast).ok, true);
          compared += 1;
        }
      }
    }
    assert.equal(compared, MERCHANTS.length * 2 * 7);
  });

  it('gives the right payload when sellers and reference lengths alternate (issue 14 round 3: the last template is kept)', () => {
    // Each call differs from the one before in one input the template depends on, so a stale last template would show.
    const ids = new IdGenerator(seeded(11));
    const [a, b] = [MERCHANTS[0]!, MERCHANTS[4]!];
    const steps: Array<Omit<MerchantQr, 'qrId'> & { reference: string }> = [
      { ...a, pointOfInitiation: 'dynamic', reference: ids.orderId() },
      { ...b, pointOfInitiation: 'dynamic', reference: ids.orderId() },
      { ...b, pointOfInitiation: 'static', reference: ids.orderId() },
      { ...b, pointOfInitiation: 'static', reference: 'short' },
      { ...b, pointOfInitiation: 'static', reference: 'short', merchantCategoryCode: '5812' },
      { ...a, pointOfInitiation: 'static', reference: 'short', merchantCategoryCode: '5812', merchantCity: 'Rosario' },
      { ...a, pointOfInitiation: 'static', reference: 'short', merchantCategoryCode: '5812', merchantCity: 'Rosario', merchantName: 'Otra' },
      { ...a, pointOfInitiation: 'dynamic', reference: ids.orderId() },
    ];
    for (const step of [...steps, ...steps]) {
      const qr = { ...step, qrId: ids.uuid() };
      assert.equal(buildMerchantQrFast(qr), buildMerchantQr(qr), JSON.stringify(qr));
    }
  });

  it('refuses what buildMerchantQr refuses, with its error', () => {
    const base = { ...MERCHANTS[0]!, pointOfInitiation: 'dynamic' as const, qrId: '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b', reference: 'ORDTST0123456789ABCDEFGHIJKLM' };
    for (const bad of [
      { ...base, qrId: 'not-a-uuid' },
      { ...base, reference: '' },
      { ...base, reference: 'x'.repeat(65) },
      { ...base, reference: 'café' },
      { ...base, countryCode: 'ar' },
      { ...base, merchantCategoryCode: '12' },
    ]) {
      assert.throws(() => buildMerchantQr(bad), RangeError);
      assert.throws(() => buildMerchantQrFast(bad), (error: unknown) => {
        assert.ok(error instanceof RangeError);
        assert.throws(() => buildMerchantQr(bad), { message: error.message });
        return true;
      });
    }
  });
});

describe('crc16 (the table form of shared/emv-qr.ts crc16Ccitt)', () => {
  it('gives crc16Ccitt\'s value for the check string and for every printable ASCII text tried', () => {
    assert.equal(crc16('123456789'), '29B1'); // CRC-16/CCITT-FALSE check value
    assert.equal(crc16(''), crc16Ccitt(''));
    const random = seeded(11);
    for (let n = 0; n < 300; n += 1) {
      let text = '';
      const length = Math.floor(random() * 200);
      for (let i = 0; i < length; i += 1) text += String.fromCharCode(0x20 + Math.floor(random() * 95));
      assert.equal(crc16(text), crc16Ccitt(text), text);
    }
  });
});
