// issue 18 "Updates" through the Electron shell (electron/main/kiosk-app.ts over the electron MOCK, the real kiosk core
// in training, a real local feed, electron-updater's autoUpdater MOCKED): an installed AppImage downloads the update,
// keeps it while a real charge waits, and installs once the charge is cancelled, inside the window.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchKioskApp } from '../../../support/launch-kiosk-app.ts';
import type { MockBrowserWindow } from '../../../support/fakes/electron-mock.ts';
import { methodChannel } from '../../../../electron/preload/channels.ts';
import { createAutoUpdaterMock, startUpdateFeed } from '../../../support/fakes/auto-updater-mock.ts';

const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};

test('the shell installs a downloaded update only when no charge is waiting, inside the window', async () => {
  const feed = await startUpdateFeed({ version: '9.0.0' });
  const updater = createAutoUpdaterMock();
  const launched = await launchKioskApp({ packaged: true, env: { APPIMAGE: '/opt/kiosk.AppImage' }, autoUpdater: async () => updater, updateKey: async () => feed.publicKey });
  try {
    const updates = launched.app?.updates;
    assert.ok(updates, 'an installed AppImage updates itself');
    const api = launched.started!.core.api;
    assert.ok((await api.setPin({ newPin: '2468' })).ok);
    // A window that is open now (the PC's local time), so the test never waits for 03:00.
    const window = `${hhmm(Date.now() - 60_000)}-${hhmm(Date.now() + 60 * 60_000)}`;
    const saved = await api.updateSettings({ pin: '2468', patch: { updateFeedUrl: feed.url, maintenanceWindow: window } });
    assert.ok(saved.ok && saved.value.updateFeedUrl === feed.url, JSON.stringify(saved));
    // The screens ask the shell's updater through the IPC; "update now" takes the manager PIN.
    const cashier = launched.app!.cashier as unknown as MockBrowserWindow;
    const invoke = (method: string, payload: unknown) => launched.electron.ipcMain.invoke(methodChannel(method), cashier.webContents, cashier.webContents.topFrame(), payload) as Promise<{ ok: boolean; value?: { phase: string }; error?: { code: string } }>;
    const wrongPin = await invoke('updateNow', { pin: '1111' });
    assert.equal(wrongPin.ok, false, JSON.stringify(wrongPin));
    assert.equal(updater.downloads, 0, 'a wrong PIN starts nothing');
    const order = await api.createOrder({ amount: '100.00' });
    assert.ok(order.ok, JSON.stringify(order));
    assert.equal((await invoke('updateNow', { pin: '2468' })).value?.phase, 'ready');
    const waiting = updates.state();
    assert.deepEqual((await invoke('getUpdateState', {})).value, waiting);
    assert.ok(waiting.phase === 'ready' && waiting.waitingFor === 'charge_waiting', JSON.stringify(waiting));
    assert.equal(updater.installs.length, 0);
    assert.ok((await api.cancelOrder({ id: order.value.id })).ok);
    assert.equal((await updates.step()).phase, 'installing');
    assert.deepEqual(updater.installs, [{ isSilent: true, isForceRunAfter: true }]);
    assert.ok(launched.electron.calls.includes('app.releaseSingleInstanceLock'), 'the updated kiosk is not turned away');
  } finally {
    await launched.close();
    await feed.close();
  }
});

test('a development run and a deb install do not update themselves, and Settings is told which', async () => {
  for (const [options, because] of [[{ packaged: false }, 'not_installed'], [{ packaged: true, env: {} }, 'deb']] as const) {
    const launched = await launchKioskApp({ ...options, autoUpdater: async () => createAutoUpdaterMock() });
    try {
      assert.equal(launched.app?.updates, null);
      // The screens ask through the IPC: a deb is the package manager's to update (README "Updates"), not "not installed".
      const cashier = launched.app!.cashier as unknown as MockBrowserWindow;
      const state = (await launched.electron.ipcMain.invoke(methodChannel('getUpdateState'), cashier.webContents, cashier.webContents.topFrame(), {})) as { ok: boolean; value?: { phase: string; because?: string } };
      assert.deepEqual([state.ok, state.value?.phase, state.value?.because], [true, 'off', because]);
    } finally {
      await launched.close();
    }
  }
});
