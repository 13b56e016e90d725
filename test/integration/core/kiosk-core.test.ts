// issue 4 "Done when", at the level of the whole core: zero-config training through the relay, polling when the relay
// stops, no secret anywhere the renderer, the logs or the database can see, and the web shell's guards; issue 12: check
// status and cancel take the order's state from the platform, never from what is stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWebShell, type WebShell } from '../../../electron/web-shell/server.ts';
import type { KioskEvent, KioskOrder } from '../../../shared/kiosk-api.ts';
import Database from 'better-sqlite3';
import { PIN, startLiveCore, startTrainingCore as startTraining, until, type LiveCore, type TrainingCore as Running } from '../../support/kiosk-cores.ts';
import { newKey, orderBody } from '../../support/sandbox-harness.ts';

const updated = (events: KioskEvent[], id: string, status: KioskOrder['status']) =>
  events.find((e): e is Extract<KioskEvent, { type: 'order.updated' }> => e.type === 'order.updated' && e.order.id === id && e.order.status === status);

describe('training mode, zero config', () => {
  let k: Running;
  before(async () => {
    k = await startTraining();
  });
  after(async () => {
    await k.close();
  });

  test('issue 4: first run, no config → connected in training mode with the seller\'s currency', async () => {
    const session = await k.core.api.getSession({});
    assert.ok(session.ok);
    assert.equal(session.value.state, 'connected');
    assert.equal(session.value.training, true);
    assert.equal(session.value.currency, 'ARS');
  });

  test('issue 4: a charge paid through the sandbox shows as processed via the relay', async () => {
    await until(() => (k.events.some((e) => e.type === 'connectivity.changed' && e.connectivity.relay === 'live') ? true : undefined), 'the relay stream');
    const created = await k.core.api.createOrder({ amount: '150.00', description: 'Two coffees' });
    assert.ok(created.ok, JSON.stringify(created));
    assert.equal(created.value.status, 'created');
    assert.match(created.value.qrData ?? '', /^000201/);
    const before = k.platform.relay.metrics.get('relay_events_sent_total');
    await k.platform.sandbox.orders.pay(created.value.id, { outcome: 'approved' });
    await k.platform.sandbox.sweep();
    const event = await until(() => updated(k.events, created.value.id, 'processed'), 'order.updated processed');
    assert.equal(event.order.paidAmount, '150.00');
    assert.ok(k.platform.relay.metrics.get('relay_events_sent_total') > before, 'the update came through the relay stream');
  });

  test('issue 4: a CLP-free currency check: an amount with the wrong decimals is refused before any call', async () => {
    const refused = await k.core.api.createOrder({ amount: '10.5' as never });
    assert.equal(refused.ok, false);
  });
});

describe('relay stopped', () => {
  let k: Running;
  before(async () => {
    k = await startTraining();
  });
  after(async () => {
    await k.close();
  });

  test('issue 4: with the relay stopped, a paid order arrives by polling', async () => {
    const created = await k.core.api.createOrder({ amount: '20.00' });
    assert.ok(created.ok, JSON.stringify(created));
    await k.platform.relay.close();
    await until(() => (k.events.some((e) => e.type === 'connectivity.changed' && e.connectivity.relay !== 'live') ? true : undefined), 'the relay to be seen down');
    await k.platform.sandbox.orders.pay(created.value.id, { outcome: 'approved' });
    const event = await until(() => updated(k.events, created.value.id, 'processed'), 'order.updated processed by polling');
    assert.equal(event.order.status, 'processed');
  });
});

describe('issue 12: check status and cancel take the state from the platform', () => {
  let k: LiveCore;
  before(async () => {
    // No relay, and a slow poller: the kiosk learns of a payment only when it asks (check status, cancel).
    k = await startLiveCore({ country: 'AR', extra: { pollIntervalMs: 60_000 } });
  });
  after(async () => {
    await k.close();
  });

  const charge = async (amount: string): Promise<string> => {
    const created = await k.core.api.createOrder({ amount });
    assert.ok(created.ok, JSON.stringify(created));
    return created.value.id;
  };
  /** The platform's own word on an order, with the seller's token. */
  const onPlatform = async (id: string): Promise<string> => (await k.h.request('GET', `/v1/orders/${id}`, { token: k.seller.token })).body.status;
  /**
   * What an older kiosk left in its database after a forged webhook: processed, dated a year ahead, with a huge version
   * (written to the real file, beside the running core, as that kiosk would have).
   */
  const forgeStoredRow = (id: string) => {
    const db = new Database(join(k.dir, 'kiosk.sqlite'));
    try {
      const future = '2027-01-15T12:00:00.000Z';
      const changed = db
        .prepare(
          `UPDATE orders SET status = 'processed', version = 9007199254740991, last_updated_date = @future,
             body = json_set(body, '$.status', 'processed', '$.status_detail', 'accredited', '$.last_updated_date', @future)
           WHERE id = @id`,
        )
        .run({ id, future });
      assert.equal(changed.changes, 1);
    } finally {
      db.close();
    }
  };
  const faultOrderGets = async () => {
    const fault = await k.h.request('POST', '/sandbox/faults', { body: { method: 'GET', path: '/v1/orders/*', kind: 'rate_limit', retry_after_seconds: 0 } });
    assert.ok(fault.status < 300, fault.text);
  };
  const clearFaults = async () => assert.ok((await k.h.request('DELETE', '/sandbox/faults')).status < 300);

  test('cancel of an order the customer already paid answers with the paid order, never "canceled"', async () => {
    const id = await charge('30.00');
    const paid = await k.h.request('POST', `/sandbox/orders/${id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(paid.status, 200, paid.text);
    const stored = await k.core.api.getOrder({ id });
    assert.ok(stored.ok);
    assert.equal(stored.value.status, 'created', 'the kiosk has not looked yet');
    const canceled = await k.core.api.cancelOrder({ id });
    assert.ok(canceled.ok, JSON.stringify(canceled));
    assert.equal(canceled.value.status, 'processed', 'the platform said paid: that is the answer');
    assert.equal(await onPlatform(id), 'processed', 'no cancel was made');
    assert.ok(updated(k.events, id, 'processed'), 'the screen is told it is paid');
  });

  test('check status replaces a state an older kiosk stored from a forged webhook; cancel then does what the platform does', async () => {
    const id = await charge('31.00');
    forgeStoredRow(id);
    const forged = await k.core.api.getOrder({ id });
    assert.ok(forged.ok);
    assert.equal(forged.value.status, 'processed', 'the forged row, as stored');
    const checked = await k.core.api.getOrder({ id, refresh: true });
    assert.ok(checked.ok, JSON.stringify(checked));
    assert.equal(checked.value.status, 'created', 'the platform says created, whatever date and version were stored');
    const kept = await k.core.api.getOrder({ id });
    assert.equal(kept.ok && kept.value.status, 'created', 'and that is what is kept');
    const canceled = await k.core.api.cancelOrder({ id });
    assert.ok(canceled.ok, JSON.stringify(canceled));
    assert.equal(canceled.value.status, 'canceled');
    assert.equal(await onPlatform(id), 'canceled');
  });

  test('with the platform not answering, a stored state it did not confirm now is never answered "ok" by cancel or check status', async () => {
    const id = await charge('32.00');
    forgeStoredRow(id);
    await faultOrderGets();
    try {
      const canceled = await k.core.api.cancelOrder({ id });
      assert.equal(canceled.ok, false, `cancel answered ${JSON.stringify(canceled)}`);
      const checked = await k.core.api.getOrder({ id, refresh: true });
      assert.equal(checked.ok, false, 'check status says it could not check');
    } finally {
      await clearFaults();
    }
    assert.equal(await onPlatform(id), 'created', 'nothing was canceled');
  });

  test('with the platform not answering the GET, cancel of an order awaiting payment goes to the platform as a cancel', async () => {
    const id = await charge('33.00');
    await faultOrderGets();
    let canceled;
    try {
      canceled = await k.core.api.cancelOrder({ id });
    } finally {
      await clearFaults();
    }
    assert.ok(canceled.ok, JSON.stringify(canceled));
    assert.equal(canceled.value.status, 'canceled', "the platform's answer to the cancel itself");
    assert.equal(await onPlatform(id), 'canceled');
  });

  test('the relay URL must be https:// except on this machine: refused with invalid_relay_url and the reason, nothing saved', async () => {
    const refused = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: 'http://relay.store.example/', relayKey: 'kiosk-key-0123456789' } });
    assert.equal(!refused.ok && refused.error.code, 'invalid_relay_url');
    assert.match(!refused.ok ? refused.error.message : '', /must start with https:\/\/: the kiosk key would cross the network in clear/);
    const settings = await k.core.api.getSettings({});
    assert.ok(settings.ok);
    assert.deepEqual([settings.value.relayUrl, settings.value.relayKeySet], [null, false], 'neither the URL nor the key was kept');
    const loopback = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: 'http://127.0.0.1:9/' } });
    assert.ok(loopback.ok, JSON.stringify(loopback));
    const secure = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: 'https://relay.store.example/' } });
    assert.ok(secure.ok, JSON.stringify(secure));
    assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: null } })).ok);
  });

  test('an order this kiosk does not have is not fetched into it by check status or cancel', async () => {
    const elsewhere = await k.h.request('POST', '/v1/orders', { token: k.seller.token, key: newKey(), body: orderBody({ config: { qr: { external_pos_id: 'CAJA-1', mode: 'dynamic' } } }) });
    assert.equal(elsewhere.status, 201, elsewhere.text);
    const id = elsewhere.body.id as string;
    for (const result of [await k.core.api.getOrder({ id, refresh: true }), await k.core.api.cancelOrder({ id })]) {
      assert.equal(!result.ok && result.error.code, 'order_not_found');
    }
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok && !listed.value.some((o) => o.id === id));
    assert.equal(await onPlatform(id), 'created');
  });
});

describe('secrets stay secret', () => {
  test('issue 4: after a full session, no token, client secret or relay key is in the database, the logs, or anything sent to the renderer', async () => {
    const k = await startTraining();
    const sentToRenderer: string[] = [];
    try {
      const call = async <T>(result: Promise<T>): Promise<T> => {
        const value = await result;
        sentToRenderer.push(JSON.stringify(value));
        return value;
      };
      // startTrainingCore set the manager PIN; every PIN-gated call below goes through it.
      await call(k.core.api.verifyPin({ pin: PIN }));
      // The relay key a manager enters goes to the vault: first the launch's own key (the stream stays live), at the
      // end one the relay does not know (the kiosk switches streams with it).
      await call(k.core.api.updateSettings({ pin: '2468', patch: { relayKey: k.platform.kioskKey, storeName: 'Kiosco' } }));
      const created = await call(k.core.api.createOrder({ amount: '80.00' }));
      assert.ok(created.ok);
      await call(k.core.api.simulatePayment({ id: created.value.id, outcome: 'approved' }));
      await call(k.core.api.refundOrder({ id: created.value.id, amount: '30.00', pin: '2468', requestId: 'core-refund-partial' }));
      await call(k.core.api.refundOrder({ id: created.value.id, pin: '2468', requestId: 'core-refund-rest' }));
      await call(k.core.api.listOrders({}));
      await call(k.core.api.listOutbox({}));
      await call(k.core.api.getSession({}));
      await call(k.core.api.getSettings({}));
      await call(k.core.api.updateSettings({ pin: '2468', patch: { expiration: 'PT10M' } }));
      await call(k.core.api.printReceipt({ id: created.value.id }));
      await call(k.core.api.importCatalog({ pin: '2468', csv: 'title,unit_price,unit_measure\nTea,10,unit\n' }));
      await call(k.core.api.listCatalog({}));
      const otherKey = `relay-${'k'.repeat(8)}-${Date.now().toString(16)}-${Math.random().toString(16).slice(2)}`;
      await call(k.core.api.updateSettings({ pin: '2468', patch: { relayKey: otherKey } }));
      await call(k.core.api.getSettings({}));
      assert.equal(await k.vault.get('relay_key'), otherKey, 'the relay key is kept in the vault');
      const secrets = [await k.vault.get('access_token'), await k.vault.get('refresh_token'), k.platform.clientSecret, k.platform.kioskKey, otherKey].filter(
        (s): s is string => !!s,
      );
      assert.equal(secrets.length, 5, 'the session holds an access token, a refresh token and the client secret; two relay keys were used');
      await k.core.stop();
      const database = readdirSync(k.dir)
        .filter((name) => name.startsWith('kiosk.sqlite'))
        .map((name) => readFileSync(join(k.dir, name)).toString('latin1'))
        .join('');
      assert.ok(database.length > 0);
      const places = { database, logs: k.logLines.join('\n'), renderer: sentToRenderer.join('\n') + JSON.stringify(k.events) };
      for (const [where, text] of Object.entries(places)) {
        for (const secret of secrets) assert.ok(!text.includes(secret), `a secret leaked into the ${where}`);
      }
      assert.ok(k.events.length > 0 && sentToRenderer.length > 5, 'the check looked at real traffic');
    } finally {
      await k.platform.close();
      rmSync(k.dir, { recursive: true, force: true });
    }
  });
});

describe('web shell guards', () => {
  let k: Running;
  let shell: WebShell;
  before(async () => {
    k = await startTraining();
    shell = await startWebShell({ api: k.core.api, events: k.core.events, staticDir: null });
  });
  after(async () => {
    await shell.close();
    await k.close();
  });
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${shell.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  test('issue 4: a call with the launch secret and the same origin reaches the core', async () => {
    const response = await post('/api/getSession', {}, { 'x-kiosk-secret': shell.secret, origin: shell.origin });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { ok: boolean; value: { state: string } };
    assert.equal(body.value.state, 'connected');
  });

  test('issue 4: a wrong or missing launch secret is 401, with the web shell\'s own code (issue 13: not the platform\'s unauthorized)', async () => {
    const refused: Array<Record<string, string>> = [{ origin: shell.origin }, { 'x-kiosk-secret': 'x'.repeat(48), origin: shell.origin }];
    for (const headers of refused) {
      const response = await post('/api/getSession', {}, headers);
      assert.equal(response.status, 401);
      assert.deepEqual(((await response.json()) as { error: unknown }).error, { code: 'launch_secret_refused', message: 'The launch secret is missing or wrong.', retryable: false });
    }
  });

  test('issue 4: another origin is refused even with the secret', async () => {
    assert.equal((await post('/api/getSession', {}, { 'x-kiosk-secret': shell.secret, origin: 'http://evil.example' })).status, 403);
  });

  test('issue 4: a form post (no JSON content type) is refused, so no page can drive the API by CSRF', async () => {
    const response = await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers: { 'content-type': 'text/plain', 'x-kiosk-secret': shell.secret }, body: '{}' });
    assert.equal(response.status, 415);
  });

  test('issue 4: invalid input is a 400 Result naming the field; unknown methods are 404', async () => {
    const invalid = await post('/api/createOrder', { amount: 'ten' }, { 'x-kiosk-secret': shell.secret, origin: shell.origin });
    assert.equal(invalid.status, 400);
    const body = (await invalid.json()) as { ok: boolean; error: { code: string; details: string[] } };
    assert.equal(body.error.code, 'invalid_input');
    assert.deepEqual(body.error.details, ['amount']);
    assert.equal((await post('/api/rm -rf', {}, { 'x-kiosk-secret': shell.secret, origin: shell.origin })).status, 404);
  });

  test('issue 4: the event stream needs the secret, then carries kiosk events', async () => {
    assert.equal((await fetch(`${shell.origin}/api/events`)).status, 401);
    const controller = new AbortController();
    const response = await fetch(`${shell.origin}/api/events?k=${shell.secret}`, { signal: controller.signal });
    assert.equal(response.status, 200);
    const reader = response.body!.getReader();
    const created = await k.core.api.createOrder({ amount: '5.00' });
    assert.ok(created.ok);
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes(created.value.id) && Date.now() < deadline) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    assert.ok(text.includes('event: order.updated'));
  });

  test('issue 4: a request naming another host is refused (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${shell.origin}/api/getSession`, { method: 'POST', headers: { host: 'attacker.example', 'content-type': 'application/json', 'x-kiosk-secret': shell.secret } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    assert.equal(status, 421);
  });
});

describe('web shell closing', () => {
  test('an event emitted as the shell closes is not written to the ended stream (no write-after-end error)', async () => {
    const k = await startTraining();
    // The core's events pass through this emitter, so the test can emit one in the same tick as close().
    const relayed = new EventEmitter();
    const unsubscribe = k.core.events.subscribe((event) => relayed.emit('event', event));
    try {
      const shell = await startWebShell({
        api: k.core.api,
        events: { subscribe: (listener) => (relayed.on('event', listener), () => relayed.off('event', listener)) },
        staticDir: null,
      });
      const controller = new AbortController();
      const response = await fetch(`${shell.origin}/api/events?k=${shell.secret}`, { signal: controller.signal });
      assert.equal(response.status, 200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      assert.match(new TextDecoder().decode((await reader.read()).value), /^retry: /);
      const errors: unknown[] = [];
      const onError = (error: unknown) => errors.push(error);
      process.on('uncaughtException', onError);
      try {
        const closed = shell.close();
        // The core goes on emitting (the outbox, the relay) while the shell is closing.
        relayed.emit('event', { type: 'connectivity.changed', connectivity: { platform: 'online', relay: 'live', lastContactAt: null, relayProblem: null } } satisfies KioskEvent);
        await closed;
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('uncaughtException', onError);
        controller.abort();
      }
      assert.deepEqual(errors, []);
      assert.equal(relayed.listenerCount('event'), 0, 'the closed shell no longer listens to the core');
    } finally {
      unsubscribe();
      await k.close();
    }
  });
});
