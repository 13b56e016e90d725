// issue 6 "Every IPC handler checks the sender (our window, top frame, our origin) and validates the payload with the
// shared schemas" — the handlers run against a real kiosk core on a real SQLite file; only `electron` is the mock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compose } from '../../../electron/core/compose.ts';
import type { KioskCore } from '../../../electron/core/kiosk-core.ts';
import { MemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import type { Logger } from '../../../electron/core/ports.ts';
import { KIOSK_METHODS, type KioskApi, type KioskEvent } from '../../../shared/kiosk-api.ts';
import { registerKioskIpc, type EventTarget, type KioskIpcMain } from '../../../electron/main/kiosk-ipc.ts';
import { EVENT_CHANNEL, EVENTS_READY_CHANNEL, methodChannel } from '../../../electron/preload/channels.ts';
import { MockFrame, MockIpcMain, MockWebContents } from '../../support/fakes/electron-mock.ts';

interface Harness {
  core: KioskCore;
  ipcMain: MockIpcMain;
  window: MockWebContents;
  calls: string[];
  warnings: string[];
  emit(event: KioskEvent): void;
  close(): Promise<void>;
}

async function harness(): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-ipc-'));
  // No platform is reachable at this address: the methods used here answer from the local store.
  const core = await compose({ dataDir: dir, platformUrl: 'http://127.0.0.1:9', relay: null, vault: new MemoryVault() });
  const calls: string[] = [];
  const api = new Proxy(core.api, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as KioskApi;
  const listeners = new Set<(event: KioskEvent) => void>();
  const warnings: string[] = [];
  const logger: Logger = { info: () => undefined, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
  const ipcMain = new MockIpcMain();
  const ipc = registerKioskIpc({
    ipcMain: ipcMain as unknown as KioskIpcMain,
    api,
    events: { subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) },
    logger,
    maxQueued: 3,
  });
  const window = new MockWebContents();
  await window.loadURL('kiosk://app/index.html#/sale');
  ipc.attach(window as unknown as EventTarget);
  return {
    core,
    ipcMain,
    window,
    calls,
    warnings,
    emit: (event) => listeners.forEach((l) => l(event)),
    async close() {
      ipc.dispose();
      assert.equal(ipcMain.handlers.size, 0, 'dispose removes every handler');
      await core.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('issue 6: there is one handler per KioskApi method, and no other', async () => {
  const h = await harness();
  try {
    assert.deepEqual([...h.ipcMain.handlers.keys()].sort(), KIOSK_METHODS.map(methodChannel).sort());
  } finally {
    await h.close();
  }
});

test('issue 6: a call from our window\'s top frame, on our origin, reaches the core', async () => {
  const h = await harness();
  try {
    const result = (await h.ipcMain.invoke(methodChannel('getSettings'), h.window, h.window.topFrame(), {})) as { ok: boolean; value?: { qrMode: string } };
    assert.equal(result.ok, true);
    assert.equal(result.value?.qrMode, 'dynamic');
    assert.deepEqual(h.calls, ['getSettings']);
  } finally {
    await h.close();
  }
});

test('issue 6: a foreign frame inside our window is refused, even one claiming our origin, and no service runs', async () => {
  const h = await harness();
  try {
    const top = h.window.topFrame();
    const senders: Array<[string, MockWebContents, MockFrame | null]> = [
      ['a subframe of another origin', h.window, new MockFrame('https://evil.example/ad.html', top)],
      ['a subframe on our origin', h.window, new MockFrame('kiosk://app/index.html', top)],
      ['our window after it navigated away', h.window, new MockFrame('https://evil.example/')],
      ['a frame that is gone', h.window, null],
      ['a window that is not ours', new MockWebContents(), new MockFrame('kiosk://app/index.html')],
      ['a file:// page', h.window, new MockFrame('file:///tmp/index.html')],
    ];
    for (const [who, contents, frame] of senders) {
      const result = (await h.ipcMain.invoke(methodChannel('setPin'), contents, frame, { newPin: '1234' })) as { ok: boolean; error?: { code: string } };
      assert.equal(result.ok, false, who);
      assert.equal(result.error?.code, 'forbidden_sender', who);
    }
    assert.deepEqual(h.calls, [], 'the core never saw the refused calls');
    const settings = await h.core.api.getSettings({});
    assert.ok(settings.ok && settings.value.hasPin === false, 'no PIN was set by a refused call');
    assert.equal(h.warnings.filter((w) => w === 'IPC from an untrusted sender refused').length, senders.length, 'each refusal is logged');
  } finally {
    await h.close();
  }
});

test('issue 6: a payload that fails the contract\'s schema is refused before any service runs', async () => {
  const h = await harness();
  try {
    const frame = h.window.topFrame();
    const cases: Array<[string, unknown]> = [
      ['createOrder', { amount: 'ten' }],
      ['createOrder', { amount: '10', extra: true }],
      ['setPin', { newPin: '12' }],
      ['getOrder', { id: '../../etc/passwd' }],
      ['listOrders', 'not an object'],
    ];
    for (const [method, payload] of cases) {
      const result = (await h.ipcMain.invoke(methodChannel(method), h.window, frame, payload)) as { ok: boolean; error?: { code: string } };
      assert.equal(result.ok, false, `${method} ${JSON.stringify(payload)}`);
      assert.equal(result.error?.code, 'invalid_input', `${method} ${JSON.stringify(payload)}`);
    }
    assert.deepEqual(h.calls, []);
  } finally {
    await h.close();
  }
});

test('issue 6 / style guide 12: events wait until the page subscribes, then arrive in order; a foreign "ready" does not release them', async () => {
  const h = await harness();
  try {
    const connectivity = (n: number): KioskEvent => ({ type: 'connectivity.changed', connectivity: { platform: 'online', relay: 'polling', lastContactAt: `2026-01-0${n}T00:00:00.000Z`, relayProblem: null } });
    for (let n = 1; n <= 5; n += 1) h.emit(connectivity(n));
    assert.equal(h.window.sent.length, 0, 'nothing is sent before the page listens');
    h.ipcMain.post(EVENTS_READY_CHANNEL, h.window, new MockFrame('https://evil.example/', h.window.topFrame()));
    assert.equal(h.window.sent.length, 0, 'a subframe cannot release the queue');
    h.ipcMain.post(EVENTS_READY_CHANNEL, h.window, h.window.topFrame());
    const days = h.window.sent.map((m) => (m.args[0] as Extract<KioskEvent, { type: 'connectivity.changed' }>).connectivity.lastContactAt?.slice(8, 10));
    assert.deepEqual(days, ['03', '04', '05'], 'the newest events (bounded queue), oldest first');
    assert.ok(h.window.sent.every((m) => m.channel === EVENT_CHANNEL));
    h.emit(connectivity(6));
    assert.equal(h.window.sent.length, 4, 'once ready, events go straight through');
  } finally {
    await h.close();
  }
});
