// issue 4 "Done when", at the level of the whole core: zero-config training through the relay, polling when the relay
// stops, no secret anywhere the renderer, the logs or the database can see, and the web shell's guards.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startWebShell, type WebShell } from '../../../electron/web-shell/server.ts';
import type { KioskEvent, KioskOrder } from '../../../shared/kiosk-api.ts';
import { PIN, startTrainingCore as startTraining, until, type TrainingCore as Running } from './kiosk-cores.ts';

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
      await call(k.core.api.refundOrder({ id: created.value.id, amount: '30.00', pin: '2468' }));
      await call(k.core.api.refundOrder({ id: created.value.id, pin: '2468' }));
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

  test('issue 4: a wrong or missing launch secret is 401', async () => {
    assert.equal((await post('/api/getSession', {}, { origin: shell.origin })).status, 401);
    assert.equal((await post('/api/getSession', {}, { 'x-kiosk-secret': 'x'.repeat(48), origin: shell.origin })).status, 401);
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
