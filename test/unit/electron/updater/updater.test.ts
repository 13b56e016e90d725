// issue 18 "Done when": the update logic over a REAL local HTTP feed (latest-linux.yml and an AppImage served on
// 127.0.0.1) with electron-updater's autoUpdater MOCKED (auto-updater-mock.ts; electron-updater imports `electron`):
// it downloads, waits while a charge is waiting or a refund is sending, installs in the window, and refuses a file
// whose checksum does not match (reported, retried later, never installed).
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpdateManager, type UpdateManagerDeps } from '../../../../electron/main/updater/updater.ts';
import { RETRY_AFTER_FAILURE_MS, type CounterActivity } from '../../../../electron/main/updater/update-policy.ts';
import { createAutoUpdaterMock, startUpdateFeed } from '../../../support/fakes/auto-updater-mock.ts';

const idle: CounterActivity = { chargeWaiting: false, refundSending: false, outboxWaiting: 0 };

describe('update manager over a real feed', () => {
  let feed: Awaited<ReturnType<typeof startUpdateFeed>>;
  let updater: ReturnType<typeof createAutoUpdaterMock>;
  let now: number;
  let minute: number;
  let activity: CounterActivity;
  let stopped: number;
  const logs: string[] = [];
  const manager = (overrides: Partial<UpdateManagerDeps> = {}) =>
    new UpdateManager({
      clock: { now: () => now },
      logger: { info: (m) => void logs.push(m), warn: (m) => void logs.push(m), error: (m) => void logs.push(m) },
      version: '1.0.0',
      platform: 'linux',
      settings: async () => ({ updateFeedUrl: feed.url, maintenanceWindow: '03:00-05:00' }),
      activity: async () => activity,
      autoUpdater: async () => updater,
      pinnedKey: async () => feed.publicKey,
      beforeInstall: async () => void (stopped += 1),
      minuteOfDay: () => minute,
      ...overrides,
    });

  beforeEach(async () => {
    feed = await startUpdateFeed({ version: '1.1.0' });
    updater = createAutoUpdaterMock();
    now = Date.parse('2026-11-25T15:00:00Z');
    minute = 15 * 60;
    activity = idle;
    stopped = 0;
  });
  afterEach(() => feed.close());

  test('downloads in the background, waits while a charge is waiting or a refund is sending, installs in the window', async () => {
    const m = manager();
    activity = { ...idle, chargeWaiting: true };
    minute = 3 * 60 + 30;
    let state = await m.step();
    assert.equal(updater.downloads, 1, 'downloaded while the charge waits');
    assert.equal(updater.autoInstallOnAppQuit, false, 'electron-updater never installs on its own at quit');
    assert.deepEqual(state, { phase: 'ready', version: '1.0.0', available: '1.1.0', waitingFor: 'charge_waiting', managerAsked: false });
    activity = { ...idle, refundSending: true };
    state = await m.step();
    assert.equal(state.phase === 'ready' && state.waitingFor, 'refund_sending');
    activity = { ...idle, outboxWaiting: 1 };
    assert.equal(((await m.step()) as { waitingFor?: string }).waitingFor, 'outbox_waiting');
    assert.equal(updater.installs.length, 0, 'never while the counter is busy');
    activity = idle;
    state = await m.step();
    assert.equal(state.phase, 'installing');
    assert.equal(stopped, 1, 'the core stopped before the install');
    assert.deepEqual(updater.installs, [{ isSilent: true, isForceRunAfter: true }]);
    assert.equal(updater.downloads, 1, 'downloaded once');
  });

  test('idle outside the window: waits; a manager\'s "update now" installs at once', async () => {
    const m = manager();
    const state = await m.step();
    assert.equal(state.phase === 'ready' && state.waitingFor, 'outside_window');
    assert.equal(updater.installs.length, 0);
    activity = { ...idle, chargeWaiting: true };
    assert.equal((await m.updateNow()).phase, 'ready', 'the tap waits for the sale to end');
    activity = idle;
    assert.equal((await m.step()).phase, 'installing', 'the tap is remembered');
    assert.equal(updater.installs.length, 1);
  });

  test('a file whose sha512 does not match the feed is refused, reported, and retried later, never installed', async () => {
    feed.feed.corrupt = true;
    minute = 3 * 60 + 30;
    const m = manager();
    const state = await m.step();
    assert.equal(state.phase, 'failed');
    assert.ok(state.phase === 'failed' && state.because === 'checksum', JSON.stringify(state));
    assert.equal(state.phase === 'failed' && state.retryAt, new Date(now + RETRY_AFTER_FAILURE_MS).toISOString());
    assert.ok(logs.some((line) => line.includes('not installed')));
    await m.step();
    assert.equal(updater.downloads, 1, 'not tried again before its time');
    now += RETRY_AFTER_FAILURE_MS;
    feed.feed.corrupt = false;
    assert.equal((await m.step()).phase, 'installing', 'the retry gets a good file and installs it in the window');
    assert.equal(updater.downloads, 2);
    assert.equal(updater.installs.length, 1);
  });

  test('an unreachable feed is reported and retried; the same version is up to date; no feed URL: off', async () => {
    const down = manager({ settings: async () => ({ updateFeedUrl: 'http://127.0.0.1:9/', maintenanceWindow: '03:00-05:00' }) });
    const failed = await down.step();
    assert.ok(failed.phase === 'failed' && failed.because === 'feed', JSON.stringify(failed));
    const current = manager({ version: '1.1.0' });
    assert.equal((await current.step()).phase, 'up_to_date');
    assert.equal(updater.downloads, 0);
    const off = manager({ settings: async () => ({ updateFeedUrl: null, maintenanceWindow: '03:00-05:00' }) });
    assert.deepEqual(await off.step(), { phase: 'off', version: '1.0.0', because: 'no_feed' });
  });
});
