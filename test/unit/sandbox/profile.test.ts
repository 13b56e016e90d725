// issue 26: the pure parts of the sandbox's documented profile (sandbox/profile.ts), each against the public page it
// follows (cited at the case).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  documentedCountry,
  documentedStatusDetail,
  documentedTimestamp,
  DOCUMENTED_REFUND_ERRORS,
  fractionDigits,
  isDocumentedRefundCode,
  isSandboxProfile,
  partialRefundsAllowed,
  ProfileSetting,
} from '../../../sandbox/profile.ts';
import { parseSandboxArgs } from '../../../sandbox/cli-args.ts';
import { DOCUMENTED_REFUND_STATUSES } from '../../support/documented-refund-errors.ts';
import { faultErrorSpec } from '../../../sandbox/http/fault-codes.ts';
import { ORDER_ERRORS } from '../../../shared/errors.ts';

const AT = Date.UTC(2026, 0, 15, 12, 0, 0, 123);

describe('documented profile: formats (platform-facts "Identifiers and formats")', () => {
  it('countries are alpha-3 (create-order reference: "country_code": "ARG")', () => {
    assert.deepEqual(['AR', 'BR', 'CL', 'UY'].map(documentedCountry), ['ARG', 'BRA', 'CHL', 'URY']);
    // A country the platform does not serve keeps its code rather than becoming something invented.
    assert.equal(documentedCountry('MX'), 'MX');
  });

  it('timestamps have 0, 2 or 9 fractional digits, all three over three consecutive milliseconds', () => {
    const texts = [AT, AT + 1, AT + 2].map(documentedTimestamp);
    const digits = texts.map((t) => /\.(\d+)Z$/.exec(t)?.[1]?.length ?? 0).sort();
    assert.deepEqual(digits, [0, 2, 9]);
    for (const text of texts) assert.match(text, /^2026-01-15T12:00:00(\.\d{2}|\.\d{9})?Z$/);
  });

  it('the same instant always reads the same, and its digit count is what fractionDigits says', () => {
    for (let ms = AT; ms < AT + 30; ms += 1) {
      assert.equal(documentedTimestamp(ms), documentedTimestamp(ms));
      const fraction = /\.(\d+)Z$/.exec(documentedTimestamp(ms))?.[1] ?? '';
      assert.equal(fraction.length, fractionDigits(ms));
    }
  });

  it('nine digits keep the millisecond: read back, they are the same instant', () => {
    let ms = AT;
    while (fractionDigits(ms) !== 9) ms += 1;
    const text = documentedTimestamp(ms);
    assert.equal(text.slice(20, 23), new Date(ms).toISOString().slice(20, 23));
    assert.equal(Date.parse(text.slice(0, 23) + 'Z'), ms);
  });

  it('two digits and none cut the instant (as the documented answers do), never round it up', () => {
    let ms = AT;
    while (fractionDigits(ms) !== 2) ms += 1;
    assert.ok(Date.parse(documentedTimestamp(ms)) <= ms);
    while (fractionDigits(ms) !== 0) ms += 1;
    assert.equal(Date.parse(documentedTimestamp(ms)), Math.floor(ms / 1000) * 1000);
  });
});

describe('documented profile: states and refunds', () => {
  it('a paid order reads processed / processed (https://www.mercadopago.cl/developers/en/docs/qr-code/resources/status-order-transaction); other details are kept', () => {
    assert.equal(documentedStatusDetail('processed', 'accredited'), 'processed');
    assert.equal(documentedStatusDetail('processed', 'partially_refunded'), 'partially_refunded');
    assert.equal(documentedStatusDetail('refunded', 'refunded'), 'refunded');
    assert.equal(documentedStatusDetail('created', 'created'), 'created');
  });

  it('partial refunds exist for Argentina, Uruguay and Chile only (refund-errors page: unsupported_partially_refunds)', () => {
    assert.deepEqual(['AR', 'UY', 'CL', 'BR'].map(partialRefundsAllowed), [true, true, true, false]);
  });

  it('the documented refund codes carry the documented statuses (https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors)', () => {
    const statuses = Object.fromEntries(Object.entries(DOCUMENTED_REFUND_ERRORS).map(([code, spec]) => [code, spec.status]));
    assert.deepEqual(statuses, DOCUMENTED_REFUND_STATUSES);
    assert.equal(isDocumentedRefundCode('order_already_refunded'), true);
    assert.equal(isDocumentedRefundCode('order_not_refundable'), false);
  });

  it('a fault may force a documented code or a seed code with its status; an unknown code has none', () => {
    assert.deepEqual(faultErrorSpec('partial_refund_forbidden_with_tips')?.status, 403);
    assert.equal(faultErrorSpec('refund_amount_exceeds')?.status, ORDER_ERRORS.refund_amount_exceeds.status);
    assert.equal(faultErrorSpec('order_alredy_refunded'), undefined);
    assert.equal(faultErrorSpec('toString'), undefined, 'an inherited name is not a code');
  });
});

describe('profile setting and flag', () => {
  it('starts at seed unless told, and switches', () => {
    const setting = new ProfileSetting();
    assert.equal(setting.current, 'seed');
    assert.equal(setting.documented, false);
    setting.set('documented');
    assert.equal(setting.documented, true);
    assert.equal(new ProfileSetting('documented').current, 'documented');
    assert.equal(isSandboxProfile('documented'), true);
    assert.equal(isSandboxProfile('Documented'), false);
  });

  it('--profile takes seed or documented (separate or inline) and refuses anything else, quoting it', () => {
    const documented = parseSandboxArgs(['--port', '0', '--profile', 'documented']);
    assert.ok(documented.ok);
    assert.equal(documented.args.profile, 'documented');
    const inline = parseSandboxArgs(['--port=0', '--profile=seed']);
    assert.ok(inline.ok);
    assert.equal(inline.args.profile, 'seed');
    const absent = parseSandboxArgs(['--port', '0']);
    assert.ok(absent.ok);
    assert.equal(absent.args.profile, undefined, 'absent means the default, seed (sandbox/main.ts)');
    for (const [argv, got] of [
      [['--port', '0', '--profile', 'real'], '"real"'],
      [['--port', '0', '--profile'], 'nothing'],
      [['--port', '0', '--profile', '--training'], 'nothing'],
      [['--port', '0', '--profile='], '""'],
    ] as const) {
      const parsed = parseSandboxArgs([...argv]);
      assert.equal(parsed.ok, false, argv.join(' '));
      if (!parsed.ok) assert.equal(parsed.error, `--profile needs one of seed, documented, got ${got}`);
    }
  });
});
