// issue 26 "Tests" and "Done when": the live-mode end to end against the sandbox's documented profile (the flows are in
// platform-flows.ts; seed-platform.test.ts runs the same against the seed profile), and every documented refund code's
// words in es, pt and en (refund-errors page https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { common } from '../../../renderer/src/i18n/common.ts';
import { describePlatformFlows, REFUND_CODES } from '../../support/live-platform-flows.ts';

test('every documented refund code has its own non-empty message in es, pt and en (renderer/src/i18n/common.ts)', () => {
  for (const code of REFUND_CODES) {
    const key = `error.${code}` as keyof typeof common.en;
    const texts = [common.en[key], common.es[key], common.pt[key]];
    for (const text of texts) assert.ok(typeof text === 'string' && text.trim().length > 0, `${code}: ${JSON.stringify(texts)}`);
    assert.equal(new Set(texts).size, 3, `${code}: the three languages say it differently`);
  }
  for (const language of ['en', 'es', 'pt'] as const) {
    const texts = REFUND_CODES.map((code) => common[language][`error.${code}` as keyof typeof common.en]);
    assert.equal(new Set(texts).size, REFUND_CODES.length, `${language}: each code has its own message`);
  }
});


describePlatformFlows('documented');
