// issue 28: one admin-key check for /fleet, /metrics and /notifications/health (relay/admin-auth.ts). The order of its
// answers, what it counts as a guess, and the per-source limit the three routes share (issue 27).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AdminGate, type CredentialRule } from '../../../relay/admin-auth.ts';
import { AuthLimiter } from '../../../relay/auth-limiter.ts';
import { RelayMetrics } from '../../../relay/metrics.ts';
import { metricValue } from '../../support/relay-harness.ts';
import { ManualClock } from '../../support/fakes/manual-clock.ts';

const ADMIN = 'admin-auth-admin-key-0123456789';
const TOKEN = 'admin-auth-metrics-token-012345';
const KIOSK = 'admin-auth-kiosk-key-0123456789';

const refusal = (status: number, error: string) => ({ status, body: { error, message: error } });
const RULE: CredentialRule = { closed: refusal(403, 'closed'), unauthorized: refusal(401, 'unauthorized') };

/** `adminKey` null: a relay started without one. */
function gate(adminKey: string | null = ADMIN, limits = { maxFailures: 3, windowMs: 60_000, maxSources: 10 }) {
  const clock = new ManualClock();
  const metrics = new RelayMetrics();
  const admin = new AdminGate({ adminKey: adminKey ?? undefined, limiter: new AuthLimiter(clock, limits), metrics, isKioskKey: (header) => header === `Bearer ${KIOSK}` });
  const refused = async (reason: string) => metricValue(await metrics.exposition(), 'relay_admin_auth_refused_total', `reason="${reason}"`);
  return { admin, clock, refused };
}

const status = (admission: ReturnType<AdminGate['check']>) => (admission.ok ? 200 : admission.refusal.status);

test('the admin key admits as a bearer; as Basic only where the rule takes it; the route tokens only where given', () => {
  const { admin } = gate();
  const basic = `Basic ${Buffer.from(`any-user:${ADMIN}`).toString('base64')}`;
  assert.equal(status(admin.check('a', `Bearer ${ADMIN}`, RULE)), 200);
  assert.equal(status(admin.check('a', basic, RULE)), 401);
  assert.equal(status(admin.check('a', basic, { ...RULE, basic: true })), 200);
  assert.equal(status(admin.check('a', `Bearer ${TOKEN}`, RULE)), 401);
  assert.equal(status(admin.check('b', `Bearer ${TOKEN}`, { ...RULE, tokens: [TOKEN] })), 200);
});

test('wrong credentials count against their source until it waits (429, Retry-After), the right key included; another source does not', async () => {
  const { admin, clock, refused } = gate();
  for (let i = 0; i < 3; i += 1) assert.equal(status(admin.check('10.0.0.1', `Bearer guess-${i}`, RULE)), 401);
  const limited = admin.check('10.0.0.1', `Bearer ${ADMIN}`, RULE);
  assert.deepEqual(limited.ok ? null : [limited.refusal.status, limited.refusal.headers], [429, { 'retry-after': '60' }]);
  assert.equal(status(admin.check('10.0.0.2', `Bearer ${ADMIN}`, RULE)), 200);
  clock.advance(60_000);
  assert.equal(status(admin.check('10.0.0.1', `Bearer ${ADMIN}`, RULE)), 200);
  assert.equal(await refused('wrong_key'), 3);
  assert.equal(await refused('rate_limited'), 1);
});

test('no credential at all, a kiosk key where the rule names its answer, and a closed route are not guesses', async () => {
  const { admin, refused } = gate();
  const kioskRule = { ...RULE, kioskKey: refusal(403, 'forbidden') };
  for (let i = 0; i < 5; i += 1) {
    assert.equal(status(admin.check('a', undefined, RULE)), 401);
    const kiosk = admin.check('a', `Bearer ${KIOSK}`, kioskRule);
    assert.equal(kiosk.ok ? null : kiosk.refusal.body.error, 'forbidden');
  }
  const closed = gate(null);
  for (let i = 0; i < 5; i += 1) {
    const answer = closed.admin.check('a', 'Bearer anything-at-all-here', RULE);
    assert.equal(answer.ok ? null : answer.refusal.body.error, 'closed');
  }
  assert.equal(status(admin.check('a', `Bearer ${ADMIN}`, RULE)), 200);
  assert.equal(await refused('wrong_key'), 0);
  assert.equal(await closed.refused('wrong_key'), 0);
  // Where the rule names no kiosk answer (/metrics), a kiosk key is a wrong key like any other.
  assert.equal(status(admin.check('a', `Bearer ${KIOSK}`, RULE)), 401);
  assert.equal(await refused('wrong_key'), 1);
});

test('an open route admits without a credential and is never limited', () => {
  const { admin } = gate();
  for (let i = 0; i < 3; i += 1) admin.check('a', `Bearer guess-${i}`, RULE);
  assert.equal(status(admin.check('a', `Bearer ${ADMIN}`, RULE)), 429);
  assert.equal(status(admin.check('a', undefined, { ...RULE, open: true })), 200);
});
