import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderPoller, PAID_SHOWN_WITHIN_MS, WAITING_CHECK_MS, type SetTimer } from '../../../../electron/core/live/order-poller.ts';
import { PlatformCallError, PlatformNetworkError } from '../../../../electron/core/platform/errors.ts';
import type { Order } from '../../../../shared/schemas/order.ts';

/** Timers the test fires by hand: no waiting on real time. */
class ManualTimers {
  pending: Array<{ fn: () => void; ms: number; cancelled: boolean }> = [];
  readonly setTimer: SetTimer = (fn, ms) => {
    const entry = { fn, ms, cancelled: false };
    this.pending.push(entry);
    return () => {
      entry.cancelled = true;
    };
  };
  get live() {
    return this.pending.filter((p) => !p.cancelled);
  }
  /** Fires every live timer once and lets the ticks' GETs settle. */
  async fire(): Promise<void> {
    const due = this.live;
    this.pending = [];
    for (const t of due) t.fn();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const fakeOrder = (id: string, status: Order['status'] = 'created') => ({ id, status }) as Order;

function setup(options: { live?: boolean; fail?: (id: string) => unknown } = {}) {
  const timers = new ManualTimers();
  const gets: string[] = [];
  const seen: Array<[string, string]> = [];
  const state = { live: options.live ?? false, awaiting: ['ORDA', 'ORDB'] };
  const poller = new OrderPoller({
    orders: {
      async get(id) {
        gets.push(id);
        const failure = options.fail?.(id);
        if (failure) throw failure;
        return fakeOrder(id, 'processed');
      },
    },
    awaiting: () => state.awaiting,
    relayLive: () => state.live,
    onOrder: (order, source) => seen.push([order.id, source]),
    intervalMs: 2000,
    setTimer: timers.setTimer,
    clock: { now: () => 1000 },
  });
  return { timers, gets, seen, state, poller };
}

test('while the relay is not live, every tick GETs each order awaiting payment', async () => {
  const { timers, gets, seen, poller } = setup();
  poller.start();
  assert.deepEqual(timers.live.map((t) => t.ms), [0], 'the first tick comes at once');
  await timers.fire();
  assert.deepEqual(gets, ['ORDA', 'ORDB']);
  assert.deepEqual(seen, [['ORDA', 'poll'], ['ORDB', 'poll']]);
  assert.deepEqual(timers.live.map((t) => t.ms), [2000], 'then about every 2 s');
  await timers.fire();
  assert.deepEqual(gets, ['ORDA', 'ORDB', 'ORDA', 'ORDB']);
  assert.equal(poller.status.mode, 'polling');
  assert.equal(poller.status.lastPollAt, 1000);
  poller.stop();
  assert.equal(poller.status.mode, 'stopped');
});

test('issue 27: while the push is healthy each waiting sale is still GET every 3 s (the 5 s bound), every 2 s again when it drops', async () => {
  const { timers, gets, state, poller } = setup({ live: true });
  assert.ok(WAITING_CHECK_MS + 2 * 1000 <= PAID_SHOWN_WITHIN_MS, 'a GET answered within 1 s keeps the bound');
  poller.start();
  await timers.fire();
  assert.deepEqual(gets, ['ORDA', 'ORDB'], 'a healthy push never stops the checks: a live stream may carry nothing');
  assert.deepEqual(timers.live.map((t) => t.ms), [WAITING_CHECK_MS]);
  assert.equal(poller.status.mode, 'standby');
  await timers.fire();
  assert.deepEqual(gets, ['ORDA', 'ORDB', 'ORDA', 'ORDB']);
  state.live = false;
  await timers.fire();
  assert.deepEqual(gets.length, 6);
  assert.deepEqual(timers.live.map((t) => t.ms), [2000]);
  assert.equal(poller.status.mode, 'polling');
  poller.stop();
});

test('issue 27: with no sale waiting and a healthy push, a tick makes no request (the idle cost stays nil)', async () => {
  const { timers, gets, state, poller } = setup({ live: true });
  state.awaiting = [];
  poller.start();
  await timers.fire();
  await timers.fire();
  assert.deepEqual(gets, []);
  assert.equal(poller.status.mode, 'standby');
  poller.stop();
});

test('a failed GET is recorded in the status, the others still arrive, and the next tick tries again', async () => {
  let down = true;
  const { timers, gets, seen, poller } = setup({ fail: (id) => (down && id === 'ORDA' ? new PlatformNetworkError('ECONNREFUSED') : undefined) });
  poller.start();
  await timers.fire();
  assert.deepEqual(seen, [['ORDB', 'poll']]);
  assert.deepEqual(poller.status.lastFailures, [{ orderId: 'ORDA', code: 'network_error', message: 'The payment platform could not be reached (ECONNREFUSED).' }]);
  assert.equal(timers.live.length, 1, 'still ticking');
  down = false;
  await timers.fire();
  assert.deepEqual(gets, ['ORDA', 'ORDB', 'ORDA', 'ORDB']);
  assert.deepEqual(poller.status.lastFailures, []);
  poller.stop();
});

test('errors of any kind, in the port or in onOrder, never escape as rejections', async () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    const { timers, poller } = setup({ fail: (id) => (id === 'ORDA' ? new TypeError('boom') : new PlatformCallError(404, 'order_not_found', 'No order.')) });
    poller.start();
    await timers.fire();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.deepEqual(poller.status.lastFailures.map((f) => f.code), ['unexpected', 'order_not_found']);
    const result = await poller.pollNow();
    assert.equal(result.failures.length, 2);
    poller.stop();
  } finally {
    process.off('unhandledRejection', onRejection);
  }
  assert.deepEqual(rejections, []);
});

test('stop() cancels the next tick, and a restart during a slow poll does not leave two timer chains', async () => {
  const timers = new ManualTimers();
  let release!: () => void;
  const blocked = new Promise<void>((resolve) => {
    release = resolve;
  });
  const poller = new OrderPoller({
    orders: {
      async get(id) {
        await blocked;
        return fakeOrder(id);
      },
    },
    awaiting: () => ['ORDA'],
    relayLive: () => false,
    onOrder: () => undefined,
    setTimer: timers.setTimer,
  });
  poller.start();
  poller.stop();
  assert.equal(timers.live.length, 0);
  poller.start();
  await timers.fire(); // a tick starts; its GET hangs
  poller.stop();
  poller.start(); // schedules a fresh first tick
  assert.equal(timers.live.length, 1);
  release();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(timers.live.length, 1, 'the tick from before the restart schedules nothing');
  poller.stop();
});

test('pollNow and reconcile GET whatever they are given, even while the relay is live', async () => {
  const { gets, seen, poller } = setup({ live: true });
  const polled = await poller.pollNow(['ORDC']);
  const reconciled = await poller.reconcile(['ORDD', 'ORDE']);
  assert.deepEqual(gets, ['ORDC', 'ORDD', 'ORDE']);
  assert.deepEqual(seen, [['ORDC', 'poll'], ['ORDD', 'get'], ['ORDE', 'get']]);
  assert.deepEqual(polled.orders.map((o) => o.id), ['ORDC']);
  assert.deepEqual(reconciled.orders.map((o) => o.id), ['ORDD', 'ORDE']);
  const defaults = await poller.pollNow();
  assert.deepEqual(defaults.orders.map((o) => o.id), ['ORDA', 'ORDB'], 'pollNow() without ids polls the orders awaiting payment');
});

test('recheck: the orders whose wake-up GET failed are polled at every tick with the awaiting ones (each once), push or no push', async () => {
  const timers = new ManualTimers();
  const gets: string[] = [];
  const state = { live: true, recheck: ['ORDP'] };
  const poller = new OrderPoller({
    orders: {
      async get(id) {
        gets.push(id);
        return fakeOrder(id, 'processed');
      },
    },
    awaiting: () => ['ORDA', 'ORDP'],
    recheck: () => state.recheck,
    relayLive: () => state.live,
    onOrder: () => undefined,
    setTimer: timers.setTimer,
  });
  poller.start();
  await timers.fire();
  assert.deepEqual(gets, ['ORDA', 'ORDP'], 'relay live: the waiting sales and the order to recheck, each once');
  assert.equal(poller.status.mode, 'standby');
  state.live = false;
  await timers.fire();
  assert.deepEqual(gets.slice(2), ['ORDA', 'ORDP'], 'relay down: each order once');
  poller.stop();
});
