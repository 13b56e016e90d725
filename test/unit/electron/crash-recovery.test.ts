// issue 6 "render-process-gone / unresponsive → reload, and relaunch after repeated crashes".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Logger } from '../../../electron/core/ports.ts';
import { CrashPolicy, watchRenderer, type WatchedContents } from '../../../electron/main/crash-recovery.ts';
import { MockWebContents } from '../../support/fakes/electron-mock.ts';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

test('issue 6: a crash reloads; the third within two minutes relaunches; crashes far apart keep reloading', () => {
  let now = 0;
  const policy = new CrashPolicy({ clock: { now: () => now } });
  assert.equal(policy.record(), 'reload');
  now += 30_000;
  assert.equal(policy.record(), 'reload');
  now += 30_000;
  assert.equal(policy.record(), 'relaunch');

  const spread = new CrashPolicy({ clock: { now: () => now } });
  for (let i = 0; i < 5; i += 1) {
    now += 61_000;
    assert.equal(spread.record(), 'reload', `crash ${i + 1}, a minute after the last`);
  }
});

function watched(options: { maxCrashes?: number } = {}) {
  const contents = new MockWebContents();
  const timers: Array<{ callback: () => void; cancelled: boolean }> = [];
  let relaunches = 0;
  let reloadsAnnounced = 0;
  watchRenderer(contents as unknown as WatchedContents, {
    policy: new CrashPolicy({ clock: { now: () => 0 }, ...options }),
    relaunch: () => void (relaunches += 1),
    onReload: () => void (reloadsAnnounced += 1),
    logger: quiet,
    setTimer: (callback) => {
      const timer = { callback, cancelled: false };
      timers.push(timer);
      return () => void (timer.cancelled = true);
    },
  });
  return { contents, timers, relaunches: () => relaunches, reloadsAnnounced: () => reloadsAnnounced };
}

test('issue 6: render-process-gone reloads the page (and tells the IPC to queue events again); a clean exit does not', () => {
  const w = watched();
  w.contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
  assert.equal(w.contents.reloads, 1);
  assert.equal(w.reloadsAnnounced(), 1);
  w.contents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
  assert.equal(w.contents.reloads, 1, 'a clean exit is not a crash');
});

test('issue 6: repeated crashes relaunch the app instead of reloading again', () => {
  const w = watched({ maxCrashes: 2 });
  w.contents.emit('render-process-gone', {}, { reason: 'oom', exitCode: 0 });
  w.contents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 });
  assert.equal(w.contents.reloads, 1);
  assert.equal(w.relaunches(), 1);
});

test('issue 6: a page that stays unresponsive is crashed on purpose (then reloaded); one that recovers is left alone', () => {
  const w = watched();
  w.contents.emit('unresponsive');
  w.contents.emit('unresponsive');
  assert.equal(w.timers.length, 1, 'one grace timer per hang');
  w.timers[0]?.callback();
  assert.equal(w.contents.crashes, 1);

  const r = watched();
  r.contents.emit('unresponsive');
  r.contents.emit('responsive');
  assert.equal(r.timers[0]?.cancelled, true);
  assert.equal(r.contents.crashes, 0);
});

test('issue 6: nothing is reloaded once the window is gone', () => {
  const w = watched();
  w.contents.destroyed = true;
  w.contents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 1 });
  assert.equal(w.contents.reloads, 0);
});
