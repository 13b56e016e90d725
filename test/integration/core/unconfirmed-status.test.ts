// issue 26 "Done when": an order answered with a status value no document lists is shown as "not confirmed", polled,
// and never counted as paid in the Z report. Real parts: the sandbox on a real port, the relay on a real port (its
// push is live the whole time), a kiosk core (real SQLite) whose platform URL is a small rewriting proxy in front of
// the sandbox: for the orders the test names, the proxy rewrites the GET answer's status the way the Orders API
// documents for other order types (platform-facts "Order states as the real platform documents them":
// `action_required` / `waiting_payment`, https://mercadopago.com.mx/developers/en/docs/order/status-errors/payment-status).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { extract } from 'tar';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Relay } from '../../../relay/app.ts';
import { startSandboxRelay } from '../../support/relay-harness.ts';
import { compose } from '../../../electron/core/compose.ts';
import type { KioskCore } from '../../../electron/core/kiosk-core.ts';
import { MemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { createLogger } from '../../../electron/core/host/logger.ts';
import { learnWebhookSecret, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { lastConnectivity, PIN, until } from '../../support/kiosk-cores.ts';
import type { KioskEvent, KioskOrder } from '../../../shared/kiosk-api.ts';

const KEY = 'kiosk-key-unconfirmed-status-0001';
const UNKNOWN = { status: 'action_required', status_detail: 'waiting_payment' };

/** The proxy: forwards everything to the sandbox; rewrites the GET of the orders in `rewrite`; counts GETs per order. */
interface Proxy {
  url: string;
  rewrite: Set<string>;
  gets: Map<string, number>;
  close(): Promise<void>;
}

async function startProxy(target: string): Promise<Proxy> {
  const rewrite = new Set<string>();
  const gets = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) {
          if (typeof value === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(name)) headers[name] = value;
        }
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        const answer = await fetch(target + (req.url ?? '/'), { method: req.method ?? 'GET', headers, ...(body && req.method !== 'GET' ? { body } : {}) });
        let text = await answer.text();
        const match = /^\/v1\/orders\/([A-Za-z0-9]+)$/.exec(req.url ?? '');
        if (req.method === 'GET' && match?.[1]) {
          const id = match[1];
          gets.set(id, (gets.get(id) ?? 0) + 1);
          if (rewrite.has(id) && answer.status === 200) text = JSON.stringify({ ...(JSON.parse(text) as object), ...UNKNOWN });
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      })().catch(() => {
        res.writeHead(502);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return {
    url: `http://127.0.0.1:${address.port}`,
    rewrite,
    gets,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let h: Harness;
let seller: SellerWithToken;
let relay: Relay;
let proxy: Proxy;
let core: KioskCore;
let dir: string;
const events: KioskEvent[] = [];
const logLines: string[] = [];

before(async () => {
  h = await startSandbox({ sweepIntervalMs: 50 });
  seller = await h.seller('AR', ['CAJA-1']);
  const secret = await learnWebhookSecret(h, seller.client_id);
  dir = mkdtempSync(join(tmpdir(), 'unconfirmed-'));
  let relayUrl: string;
  ({ relay, url: relayUrl } = await startSandboxRelay(h, seller, secret, KEY, { dataFile: join(dir, 'relay.db') }));
  proxy = await startProxy(h.url);
  mkdirSync(join(dir, 'kiosk'));
  core = await compose({
    dataDir: join(dir, 'kiosk'),
    platformUrl: proxy.url,
    relay: { url: relayUrl, key: KEY },
    training: null,
    vault: new MemoryVault(),
    logger: createLogger({ write: (line) => logLines.push(line) }),
    pollIntervalMs: 100,
  });
  core.events.subscribe((event) => events.push(event));
  await core.start();
  const connected = await core.api.connect({ method: 'client_credentials', clientId: seller.client_id, clientSecret: seller.client_secret, pin: PIN, countryCode: 'AR' });
  assert.ok(connected.ok, JSON.stringify(connected));
});

after(async () => {
  await core?.stop();
  await relay?.close();
  await proxy?.close();
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function must<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: unknown }>): Promise<T> {
  const r = await result;
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

/** The kiosk's view of `id` as the screens last heard it (order.updated events). */
function lastUpdate(id: string): KioskOrder | undefined {
  return events.filter((e): e is Extract<KioskEvent, { type: 'order.updated' }> => e.type === 'order.updated' && e.order.id === id).at(-1)?.order;
}

test('an unknown status is "unconfirmed": shown, polled while the relay is live, never paid in the Z report, then Paid', async () => {
  await until(() => (lastConnectivity(events)?.relay === 'live' ? true : undefined), 'the relay stream to be live');
  const sale = await must(core.api.createOrder({ amount: '250.00' }));
  assert.equal(sale.status, 'created');

  // The customer pays; from now on the platform answers this order with a status the kiosk does not know.
  proxy.rewrite.add(sale.id);
  const paid = await h.request('POST', `/sandbox/orders/${sale.id}/pay`, { body: { outcome: 'approved' } });
  assert.ok(paid.status < 300, paid.text);
  // The push (webhook → relay → the kiosk's GET through the proxy) brings the unknown status.
  const shown = await until(() => (lastUpdate(sale.id)?.status === 'unconfirmed' ? lastUpdate(sale.id) : undefined), 'the order to be shown unconfirmed');
  assert.equal(shown.platformStatus, 'action_required');
  assert.equal(shown.statusDetail, 'waiting_payment');
  assert.equal(lastConnectivity(events)?.relay, 'live', 'the relay is live: a created order would not be polled now');

  // Polled again and again while the relay is live (the poller's recheck list), never an error that stops the checks.
  const before = proxy.gets.get(sale.id) ?? 0;
  await until(() => ((proxy.gets.get(sale.id) ?? 0) >= before + 3 ? true : undefined), 'three more GETs of the unconfirmed order');
  assert.equal(lastConnectivity(events)?.relay, 'live');
  const stored = await must(core.api.getOrder({ id: sale.id }));
  assert.equal(stored.status, 'unconfirmed');

  // The Z report: not paid, listed among the orders not final.
  const now = h.sandbox.clock.now();
  const day = { since: new Date(now - 3600_000).toISOString(), until: new Date(now + 3600_000).toISOString() };
  const report = await must(core.api.previewReport(day));
  const block = report.currencies.find((c) => c.currency === 'ARS');
  assert.deepEqual(block?.paid ?? { count: 0, total: '0.00' }, { count: 0, total: '0.00' });
  assert.deepEqual(
    report.openOrders.map((o) => ({ id: o.id, status: o.status })),
    [{ id: sale.id, status: 'unconfirmed' }],
  );

  // The raw answer, redacted, is in the log once (not at every poll) and in the support bundle's journal.
  const noted = logLines.filter((line) => line.includes('order status this kiosk does not know') && line.includes(sale.id));
  assert.equal(noted.length, 1, 'logged once, not at every poll');
  assert.match(noted[0] ?? '', /action_required/);
  const bundle = await must(core.api.saveDiagnostics({ pin: PIN }));
  const out = join(dir, 'bundle');
  mkdirSync(out);
  writeFileSync(join(out, bundle.fileName), Buffer.from(bundle.base64, 'base64'));
  await extract({ file: join(out, bundle.fileName), cwd: out });
  const journal = JSON.parse(readFileSync(join(out, 'platform-answers.json'), 'utf8')) as { answers: Array<{ kind: string; reason: string; answer: { id?: string; platform_status?: string } }> };
  const kept = journal.answers.find((a) => a.answer.id === sale.id);
  assert.equal(kept?.kind, 'unconfirmed');
  assert.equal(kept?.answer.platform_status, 'action_required');
  assert.match(kept?.reason ?? '', /action_required \/ waiting_payment/);

  // The platform settles: the next poll shows Paid, and the Z report counts it once.
  proxy.rewrite.delete(sale.id);
  await until(() => (lastUpdate(sale.id)?.status === 'processed' ? true : undefined), 'the order to be shown paid');
  const after = await must(core.api.previewReport(day));
  assert.deepEqual(after.currencies.find((c) => c.currency === 'ARS')?.paid, { count: 1, total: '250.00' });
  assert.deepEqual(after.openOrders, []);
});
