// issue 12: each webhook secret belongs to one application, and the application names the sellers it may speak for;
// the legacy `webhookSecrets` are one application serving the sellers of the kiosk keys.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEGACY_APPLICATION_ID, resolveApplications, signingApplication, type WebhookApplication } from '../../../relay/applications.ts';
import { signatureHeader } from '../../../node-common/webhook-signature.ts';

const A = { id: '4444', secrets: ['secret-of-app-a-0123456789'], sellers: ['111', '222'] };
const B = { id: '5555', secrets: ['secret-of-app-b-0123456789', 'secret-of-app-b-rotated-01'], sellers: ['333'] };
const LEGACY = 'legacy-secret-0123456789abcdef';
const NOW_S = 1_768_478_400;
const DATA_ID = 'ORDTST01JAPPLICATIONS00000001';

function signed(secret: string, overrides: Partial<Parameters<typeof signingApplication>[1]> = {}) {
  return { header: signatureHeader(secret, DATA_ID, 'req-1', NOW_S), requestId: 'req-1', dataId: DATA_ID, nowMs: NOW_S * 1000, toleranceSeconds: 300, ...overrides };
}

test('issue 12: the legacy secrets become one application serving the sellers of the kiosk keys, once each', () => {
  const apps = resolveApplications([A], [LEGACY], [
    { key: 'k1', userId: '900', posIds: null },
    { key: 'k2', userId: '900', posIds: ['POS1'] },
    { key: 'k3', userId: '901', posIds: null },
  ]);
  assert.deepEqual(apps, [A, { id: LEGACY_APPLICATION_ID, secrets: [LEGACY], sellers: ['900', '901'] }]);
  // No kiosk key: the legacy application serves nobody (it can route nothing), but it is not an error.
  assert.deepEqual(resolveApplications([], [LEGACY], [])[0]?.sellers, []);
});

test('issue 12: a secret in two applications, a repeated id, no secret, no seller or a bad seller is refused without quoting a secret', () => {
  const cases: Array<[WebhookApplication[], string[], RegExp]> = [
    [[A, { ...B, secrets: [A.secrets[0] as string] }], [], /^application 5555: a webhook secret is given twice \(one secret belongs to one application\)$/],
    [[A], [A.secrets[0] as string], /^application legacy: a webhook secret is given twice/],
    [[A, { ...B, id: A.id }], [], /^application 4444 is given twice$/],
    [[{ ...A, secrets: [] }], [], /^application 4444 needs at least one secret$/],
    [[{ ...A, secrets: ['short'] }], [], /^application 4444: a webhook secret must be at least 16 characters$/],
    [[{ ...A, sellers: [] }], [], /^application 4444 needs at least one seller$/],
    [[{ ...A, sellers: ['12a'] }], [], /^application 4444: seller 12a is not a numeric user id$/],
    [[{ ...A, id: 'no spaces please' }], [], /^application no spaces please: the id must be 1 to 64 letters, digits, _ or -$/],
    [[], [], /^at least one webhook secret or application is required$/],
  ];
  for (const [configured, legacy, expected] of cases) {
    assert.throws(
      () => resolveApplications(configured, legacy, []),
      (error: Error) => {
        assert.match(error.message, expected);
        for (const secret of [...A.secrets, ...B.secrets]) assert.ok(!error.message.includes(secret), 'no secret in the message');
        return true;
      },
    );
  }
});

test('issue 12: the signing application is the one whose secret verifies, rotated secrets included', () => {
  const apps = [A, B];
  const byA = signingApplication(apps, signed(A.secrets[0] as string));
  assert.ok(byA.ok);
  assert.equal(byA.application.id, '4444');
  const byB = signingApplication(apps, signed(B.secrets[1] as string));
  assert.ok(byB.ok);
  assert.equal(byB.application.id, '5555');
  assert.equal(byB.tsMs, NOW_S * 1000);
});

test('issue 12: no application: bad_signature; a missing, malformed or stale header fails as such whatever the applications', () => {
  const apps = [A, B];
  assert.deepEqual(signingApplication(apps, signed('an-unknown-secret-0123456789')), { ok: false, reason: 'bad_signature' });
  assert.deepEqual(signingApplication(apps, signed(A.secrets[0] as string, { header: undefined })), { ok: false, reason: 'missing_signature' });
  assert.deepEqual(signingApplication(apps, signed(A.secrets[0] as string, { header: 'garbage' })), { ok: false, reason: 'malformed_signature' });
  assert.deepEqual(signingApplication(apps, signed(A.secrets[0] as string, { nowMs: (NOW_S + 301) * 1000 })), { ok: false, reason: 'stale_timestamp' });
  assert.deepEqual(signingApplication(apps, signed(A.secrets[0] as string, { requestId: undefined })), { ok: false, reason: 'missing_request_id' });
});
