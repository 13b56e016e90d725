// issue 12 "IPN endpoint": lookups are concurrency-limited, rate-limited and queued with a bound; a (topic, id) waiting
// for its lookup is looked up once however often it is notified. The rate is checked as a lower bound on time (a slow
// machine only stretches it), never as a speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IpnLookups, type LookupTicket } from '../../../relay/ipn-lookups.ts';

/** A job that takes its turn once, records when, holds the slot until `hold` resolves, and ends. */
function oneLookup(log: number[], now: () => number, hold: () => Promise<void> = async () => undefined) {
  return async (ticket: LookupTicket) => {
    const release = await ticket.turn();
    if (release === null) return;
    log.push(now());
    try {
      await hold();
    } finally {
      release();
    }
  };
}

test('issue 12: at most `concurrency` lookups hold a turn at once; the others wait and then all run', async () => {
  const lookups = new IpnLookups({ concurrency: 2, queue: 10, perSecond: 1000 });
  let inFlight = 0;
  let maxInFlight = 0;
  const gates: Array<() => void> = [];
  const started: number[] = [];
  const jobs = Array.from({ length: 6 }, (_, i) =>
    lookups.offer(`payment:${i}`, async (ticket) => {
      const release = await ticket.turn();
      assert.ok(release);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      started.push(i);
      await new Promise<void>((resolve) => gates.push(resolve));
      inFlight -= 1;
      release();
    }),
  );
  assert.deepEqual(
    jobs.map((j) => j.offer),
    Array(6).fill('accepted'),
  );
  // Open the gates one by one until every job has started and ended.
  while (started.length < 6 || gates.length > 0) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    gates.shift()?.();
  }
  await Promise.all(jobs.map((j) => j.done));
  assert.equal(maxInFlight, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5], 'turns are granted in arrival order');
  assert.equal(lookups.outstanding, 0);
});

test('issue 12: turns start at most `perSecond` per second, evenly spaced on the limiter clock', async () => {
  const now = () => performance.now();
  const times: number[] = [];
  const lookups = new IpnLookups({ concurrency: 8, queue: 100, perSecond: 50 }, now);
  const jobs = Array.from({ length: 12 }, (_, i) => lookups.offer(`payment:${i}`, oneLookup(times, now)));
  await Promise.all(jobs.map((j) => j.done));
  assert.equal(times.length, 12);
  // 50 per second: 12 turns are spread over at least 11 × 20 ms. A lower bound only: a slow machine makes it longer,
  // never shorter (the few ms of slack cover the time between a grant and the job noting it).
  const span = (times.at(-1) as number) - (times[0] as number);
  assert.ok(span >= 11 * 20 - 5, `12 turns within ${span.toFixed(1)} ms: faster than 50 per second`);
});

test('issue 12: beyond concurrency + queue outstanding jobs an offer is refused as full; the bound frees as jobs end', async () => {
  const lookups = new IpnLookups({ concurrency: 1, queue: 2, perSecond: 1000 });
  let open!: () => void;
  const held = new Promise<void>((resolve) => (open = resolve));
  const times: number[] = [];
  const accepted = [1, 2, 3].map((i) => lookups.offer(`payment:${i}`, oneLookup(times, () => performance.now(), () => held)));
  assert.deepEqual(
    accepted.map((a) => a.offer),
    ['accepted', 'accepted', 'accepted'],
  );
  assert.equal(lookups.offer('payment:4', oneLookup(times, () => 0)).offer, 'full');
  assert.equal(lookups.outstanding, 3);
  open();
  await Promise.all(accepted.map((a) => a.done));
  assert.equal(times.length, 3, 'the refused job never ran');
  const later = lookups.offer('payment:4', oneLookup(times, () => 0));
  assert.equal(later.offer, 'accepted');
  await later.done;
});

test('issue 12: the same (topic, id) offered while its lookup waits is a duplicate; once the lookup has started, a new one is taken', async () => {
  const lookups = new IpnLookups({ concurrency: 1, queue: 10, perSecond: 1000 });
  let openFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (openFirst = resolve));
  const times: number[] = [];
  // payment:A holds the only slot; payment:B waits behind it.
  const a = lookups.offer('payment:A', oneLookup(times, () => 1, () => firstHeld));
  const b = lookups.offer('payment:B', oneLookup(times, () => 2));
  assert.deepEqual([a.offer, b.offer], ['accepted', 'accepted']);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(lookups.offer('payment:B', oneLookup(times, () => 99)).offer, 'duplicate', 'B has not been looked up yet: its lookup will read it as it is then');
  // A is being looked up now: what changed since may not be in its answer, so a new A is taken.
  const again = lookups.offer('payment:A', oneLookup(times, () => 3));
  assert.equal(again.offer, 'accepted');
  openFirst();
  await Promise.all([a.done, b.done, again.done]);
  assert.deepEqual(times, [1, 2, 3]);
});

test('issue 12: a job about to retry steps aside when another job for the same resource is already waiting', async () => {
  const lookups = new IpnLookups({ concurrency: 1, queue: 10, perSecond: 1000 });
  const outcome: string[] = [];
  let openFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (openFirst = resolve));
  const first = lookups.offer('payment:7', async (ticket) => {
    const release = await ticket.turn();
    await firstHeld;
    release?.();
    outcome.push(ticket.retryLater() ? 'first retries' : 'first steps aside');
  });
  await new Promise((resolve) => setTimeout(resolve, 10));
  const second = lookups.offer('payment:7', async (ticket) => {
    const release = await ticket.turn();
    release?.();
    outcome.push('second looked up');
  });
  assert.equal(second.offer, 'accepted');
  openFirst();
  await Promise.all([first.done, second.done]);
  assert.deepEqual(outcome.sort(), ['first steps aside', 'second looked up']);
});

test('issue 12: close() ends every wait with no turn, and nothing is accepted after it', async () => {
  const lookups = new IpnLookups({ concurrency: 1, queue: 5, perSecond: 0.5 });
  const turns: Array<'turn' | 'none'> = [];
  const jobs = [1, 2, 3].map((i) =>
    lookups.offer(`payment:${i}`, async (ticket) => {
      const release = await ticket.turn();
      turns.push(release ? 'turn' : 'none');
      release?.();
    }),
  );
  // The first gets its turn at once; the next would wait two seconds for the rate.
  await new Promise((resolve) => setTimeout(resolve, 20));
  lookups.close();
  await Promise.all(jobs.map((j) => j.done));
  assert.deepEqual(turns, ['turn', 'none', 'none']);
  assert.equal(lookups.offer('payment:9', async () => undefined).offer, 'full');
});

test('issue 12: limits must be positive (and whole, but for the rate)', () => {
  assert.throws(() => new IpnLookups({ concurrency: 0, queue: 1, perSecond: 1 }), /IPN limit concurrency must be a positive number, got 0/);
  assert.throws(() => new IpnLookups({ concurrency: 1, queue: 1.5, perSecond: 1 }), /IPN limit queue/);
  assert.throws(() => new IpnLookups({ concurrency: 1, queue: 1, perSecond: Number.NaN }), /IPN limit perSecond/);
});
