// issue 12 "IPN endpoint": an IPN flood cannot multiply into unbounded platform calls. A bounded flood (200 IPNs, 100
// payments each notified twice) against a real upstream on 127.0.0.1 that counts the lookups it receives and how many
// are in flight at once, and holds every answer until the flood is over: the relay starts at most `concurrency`
// lookups at once, takes at most `concurrency + queue` IPNs, answers the rest 503 with Retry-After (the platform
// retries), and looks a waiting payment up once however often it is notified.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { fetchMetric, startTempRelay, type TempRelay } from '../../support/relay-harness.ts';

const SELLER = '777000';
const LIMITS = { concurrency: 3, queue: 20, perSecond: 50 };
const PAYMENTS = 100;

let upstream: Server;
let relay: TempRelay;
let calls = 0;
let inFlight = 0;
let maxInFlight = 0;
const callTimes: number[] = [];
let openGate!: () => void;
const gate = new Promise<void>((resolve) => (openGate = resolve));

before(async () => {
  // The platform's payment lookup (seed 4.7), counting.
  upstream = createServer((req, res) => {
    calls += 1;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    callTimes.push(performance.now());
    const id = /^\/v1\/payments\/(\d+)$/.exec(req.url ?? '')?.[1] ?? '0';
    void gate.then(() => {
      inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: Number(id), status: 'approved', collector_id: Number(SELLER) }));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  relay = await startTempRelay('relay-ipn-flood-', {
    platformUrl: `http://127.0.0.1:${(upstream.address() as { port: number }).port}`,
    platformToken: `APP_USR-flood-${SELLER}`,
    applications: [{ id: 'flood-app', secrets: ['flood-webhook-secret-0123456789'], sellers: [SELLER] }],
    kioskKeys: [],
    ipnLimits: LIMITS,
  });
});
after(async () => {
  openGate();
  await relay.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

test('issue 12: an IPN flood is bounded: concurrency, queue, de-duplication and rate hold at the upstream', async () => {
  const flood = Array.from({ length: PAYMENTS * 2 }, (_, i) => String(5_000_000 + (i % PAYMENTS)));
  const answers: Array<{ status: number; body: { status?: string; error?: string; reason?: string }; retryAfter: string | null }> = [];
  // 20 at a time, as a platform draining its queue would.
  for (let i = 0; i < flood.length; i += 20) {
    answers.push(
      ...(await Promise.all(
        flood.slice(i, i + 20).map(async (id) => {
          const response = await fetch(`${relay.url}/notifications/ipn?topic=payment&id=${id}`, { method: 'POST' });
          return { status: response.status, body: (await response.json()) as { status?: string; error?: string }, retryAfter: response.headers.get('retry-after') };
        }),
      )),
    );
  }
  const accepted = answers.filter((a) => a.status === 200 && a.body.status === 'accepted');
  const duplicates = answers.filter((a) => a.status === 200 && a.body.status === 'duplicate');
  const busy = answers.filter((a) => a.status === 503);
  assert.equal(accepted.length + duplicates.length + busy.length, flood.length, 'every IPN got one of the three answers');
  // No lookup could end while the upstream held its answers, so exactly the bound was taken.
  assert.equal(accepted.length, LIMITS.concurrency + LIMITS.queue);
  assert.ok(duplicates.length > 0, 'a payment notified again while its lookup waited was not taken twice');
  for (const answer of duplicates) assert.equal(answer.body.reason, 'ipn_lookup_queued');
  for (const answer of busy) assert.deepEqual([answer.body.error, answer.retryAfter], ['ipn_busy', '30']);
  assert.equal(await fetchMetric(relay.url, 'relay_notifications_rejected_total', 'reason="ipn_busy"'), busy.length);
  assert.equal(calls, LIMITS.concurrency, 'while the upstream held its answers, only `concurrency` lookups reached it');

  openGate();
  await relay.relay.idle();
  assert.equal(calls, accepted.length, 'one lookup per accepted IPN, and none for the refused or de-duplicated ones');
  assert.ok(maxInFlight <= LIMITS.concurrency, `at most ${LIMITS.concurrency} lookups in flight at the upstream, saw ${maxInFlight}`);
  assert.equal(await fetchMetric(relay.url, 'relay_events_appended_total'), accepted.length);
  // 50 per second, one every 20 ms: the lookups span at least (calls - 1) × 20 ms (less a little for the time between
  // a start and its arrival). A lower bound only: a slower machine stretches it, never shortens it.
  const span = (callTimes.at(-1) as number) - (callTimes[0] as number);
  assert.ok(span >= (calls - 1) * (1000 / LIMITS.perSecond) - 50, `${calls} lookups within ${span.toFixed(0)} ms: faster than ${LIMITS.perSecond} per second`);
});
