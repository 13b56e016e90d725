// issue 6 "Done when": the preload exposes exactly the contract's methods — tested on the built bundle
// (out/preload/preload.cjs, as Electron loads it) with the mocked `electron` module as its only require.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { bundleElectron } from '../../../build/bundle-electron.ts';
import { KIOSK_METHODS, type KioskEvent } from '../../../shared/kiosk-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';
import { EVENT_CHANNEL, EVENTS_READY_CHANNEL, methodChannel } from '../../../electron/preload/channels.ts';
import { createRendererElectronMock } from '../../support/fakes/electron-mock.ts';

let source = '';
const outDir = mkdtempSync(join(tmpdir(), 'kiosk-preload-'));
before(async () => {
  const { preload } = await bundleElectron(outDir);
  source = readFileSync(preload, 'utf8');
});
after(() => rmSync(outDir, { recursive: true, force: true }));

interface ExposedBridge {
  api: Record<string, (input?: unknown) => Promise<unknown>>;
  subscribe(listener: (event: KioskEvent) => void): () => void;
}

/** Runs the bundle the way a sandboxed preload runs: CommonJS, a `require` that knows only `electron`. */
function loadPreload() {
  const electron = createRendererElectronMock();
  const required: string[] = [];
  const module = { exports: {} };
  runInNewContext(source, {
    module,
    exports: module.exports,
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return { contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer };
    },
  });
  return { electron, required, bridge: electron.exposed.get('kiosk') as ExposedBridge };
}

test('issue 6: the preload is one self-contained file whose only require is electron', () => {
  const { required } = loadPreload();
  assert.deepEqual([...new Set(required)], ['electron']);
  assert.doesNotMatch(source, /require\((?!"electron"\))/, 'no other require in the bundle');
});

test('issue 6: it exposes one global, `kiosk`, holding exactly the KioskApi methods and a subscription', () => {
  const { electron, bridge } = loadPreload();
  assert.deepEqual([...electron.exposed.keys()], ['kiosk']);
  assert.deepEqual(Object.keys(bridge).sort(), ['api', 'subscribe']);
  assert.deepEqual(Object.keys(bridge.api).sort(), [...KIOSK_METHODS].sort());
  for (const method of KIOSK_METHODS) assert.equal(typeof bridge.api[method], 'function', method);
  assert.ok(Object.isFrozen(bridge.api), 'the page cannot add methods to the bridge');
});

test('issue 6: no ipcRenderer passthrough: nothing exposed reaches invoke, send, on or a channel of the page\'s choosing', () => {
  const { bridge } = loadPreload();
  const reachable = [...Object.getOwnPropertyNames(bridge), ...Object.getOwnPropertyNames(bridge.api)];
  for (const name of ['ipcRenderer', 'invoke', 'send', 'on', 'sendSync', 'postMessage', 'call', 'channel']) assert.ok(!reachable.includes(name), name);
});

test('issue 6: each method invokes its own channel with the input, and answers main\'s Result', async () => {
  const { electron, bridge } = loadPreload();
  electron.answerWith(async (channel) => ({ ok: true, value: channel }));
  const result = await bridge.api.createOrder?.({ amount: '10.50' });
  assert.deepEqual(result, { ok: true, value: methodChannel('createOrder') });
  assert.deepEqual(electron.invoked, [{ channel: methodChannel('createOrder'), args: [{ amount: '10.50' }] }]);
});

test('issue 6: when main does not answer (no handler yet), the method resolves to a shell_unreachable Result', async () => {
  const { electron, bridge } = loadPreload();
  electron.answerWith(async () => {
    throw new Error("No handler registered for 'kiosk:call:getSession'");
  });
  const result = (await bridge.api.getSession?.({})) as { ok: boolean; error?: { code: string } };
  assert.equal(result.ok, false);
  // The bundle runs in its own context (objects of another realm): compared as the page receives them, as JSON.
  assert.deepEqual(JSON.parse(JSON.stringify(result.error)), kioskError('shell_unreachable'), "issue 28: the table's code, words and retryable");
});

test('issue 6 / style guide 12: the first subscription tells main the page listens; listeners get the event, never the IPC event object', () => {
  const { electron, bridge } = loadPreload();
  assert.equal(electron.sent.length, 0);
  const received: unknown[][] = [];
  const unsubscribe = bridge.subscribe((...args: unknown[]) => void received.push(args));
  bridge.subscribe(() => {
    throw new Error('a broken listener');
  });
  assert.deepEqual(electron.sent, [{ channel: EVENTS_READY_CHANNEL, args: [] }], 'ready is sent once');
  const event: KioskEvent = { type: 'connectivity.changed', connectivity: { platform: 'offline', relay: 'offline', lastContactAt: null, relayProblem: null } };
  electron.deliver(EVENT_CHANNEL, event);
  assert.deepEqual(received, [[event]], 'only the payload, so the page never holds ipcRenderer (the event\'s sender)');
  unsubscribe();
  electron.deliver(EVENT_CHANNEL, event);
  assert.equal(received.length, 1, 'unsubscribed listeners hear nothing more');
  // The bundle runs in its own context, with its own TypeError: compare by name.
  assert.throws(() => bridge.subscribe('not a function' as unknown as () => void), { name: 'TypeError' });
});
