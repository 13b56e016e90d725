// issue 16 "Cache the POS check briefly": the readiness check asks the platform about the chosen POS at most once a
// minute (once every ten seconds while it cannot be asked), shares one call among concurrent askers, and takes what
// the kiosk learned otherwise (a POS chosen, a charge's pos_not_found) at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PosCheck } from '../../../../electron/core/platform/pos-check.ts';
import { PlatformNetworkError } from '../../../../electron/core/platform/errors.ts';
import type { PlatformPos } from '../../../../electron/core/platform/stores-client.ts';
import { ManualClock } from '../../../support/fakes/manual-clock.ts';

const POS: PlatformPos = { id: '1', name: 'Caja 1', external_id: 'CAJA1', store_id: '7', category: 621102, uuid: null, qr: null };

function counting(answer: () => Promise<PlatformPos | null>) {
  const asked = { count: 0 };
  return { asked, ask: () => ((asked.count += 1), answer()) };
}

test('a found POS is kept for a minute, then asked again', async () => {
  const clock = new ManualClock();
  const check = new PosCheck(clock);
  const { asked, ask } = counting(async () => POS);
  assert.equal((await check.check('CAJA1', ask)).state, 'found');
  clock.advance(59_000);
  assert.equal((await check.check('CAJA1', ask)).state, 'found');
  assert.equal(asked.count, 1);
  clock.advance(1_000);
  await check.check('CAJA1', ask);
  assert.equal(asked.count, 2);
});

test('another POS is never answered from the kept one', async () => {
  const check = new PosCheck(new ManualClock());
  const { asked, ask } = counting(async () => null);
  await check.check('CAJA1', async () => POS);
  assert.equal((await check.check('CAJA2', ask)).state, 'not_found');
  assert.equal(asked.count, 1);
});

test('no answer is unchecked, kept ten seconds only; a bug in the asker is not hidden', async () => {
  const clock = new ManualClock();
  const check = new PosCheck(clock);
  const { asked, ask } = counting(async () => {
    throw new PlatformNetworkError('ECONNREFUSED');
  });
  assert.equal((await check.check('CAJA1', ask)).state, 'unchecked');
  clock.advance(9_000);
  await check.check('CAJA1', ask);
  assert.equal(asked.count, 1);
  clock.advance(1_000);
  await check.check('CAJA1', ask);
  assert.equal(asked.count, 2);
  clock.advance(10_000);
  await assert.rejects(check.check('CAJA1', async () => Promise.reject(new TypeError('bug'))), TypeError);
});

test('concurrent askers share one call', async () => {
  const check = new PosCheck(new ManualClock());
  let release!: (pos: PlatformPos) => void;
  const { asked, ask } = counting(() => new Promise<PlatformPos>((resolve) => (release = resolve)));
  const first = check.check('CAJA1', ask);
  const second = check.check('CAJA1', ask);
  release(POS);
  assert.deepEqual(await first, await second);
  assert.equal(asked.count, 1);
});

test("what the kiosk learned otherwise replaces the kept answer at once (a charge's pos_not_found)", async () => {
  const check = new PosCheck(new ManualClock());
  await check.check('CAJA1', async () => POS);
  check.record('CAJA1', null);
  const { asked, ask } = counting(async () => POS);
  assert.equal((await check.check('CAJA1', ask)).state, 'not_found');
  assert.equal(asked.count, 0);
  assert.equal(check.last('CAJA1')?.state, 'not_found');
});
