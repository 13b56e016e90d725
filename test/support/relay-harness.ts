// An in-process relay on a real port (127.0.0.1:0) logging to SQLite in a temp dir, and its Prometheus counters.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRelay, type Relay, type RelayOptions } from '../../relay/app.ts';
import { pointWebhooksAt, type Harness, type SellerWithToken } from './sandbox-harness.ts';

export interface TempRelay {
  relay: Relay;
  url: string;
  /** Closes the relay, then removes its temp dir. */
  close(): Promise<void>;
}

/**
 * buildRelay with `dataFile` in a fresh temp dir named after `prefix`, listening on 127.0.0.1:0. /metrics is served
 * open unless `options.metrics` says otherwise: the suites read their counters with fetchMetric, while the relay's own
 * default (a credential required, issue 27) is proven in test/integration/relay/security-27.test.ts.
 */
export async function startTempRelay(prefix: string, options: Omit<RelayOptions, 'dataFile'>): Promise<TempRelay> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const relay = await buildRelay({ metrics: { open: true }, ...options, dataFile: join(dir, 'relay.db') });
  const url = await relay.listen(0);
  return {
    relay,
    url,
    async close() {
      await relay.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A relay in front of the sandbox `h`: it checks `secret`, serves kiosk `key` for every POS of `seller`, shares the
 * sandbox's clock (the signature's ts comes from it), retries streams after 20 ms (quick reconnects; the subscriber
 * honours it as its minimum), listens on 127.0.0.1:0, and the seller's webhooks are pointed at it. In memory unless
 * `extra.dataFile` says otherwise; `extra` overrides any of these. The caller closes it.
 */
export async function startSandboxRelay(h: Harness, seller: SellerWithToken, secret: string, key: string, extra: Partial<RelayOptions> = {}): Promise<{ relay: Relay; url: string }> {
  const relay = await buildRelay({
    platformUrl: h.url,
    webhookSecrets: [secret],
    kioskKeys: [{ key, userId: seller.user_id, posIds: null }],
    clock: { now: () => h.sandbox.clock.now() },
    stream: { retryMs: 20 },
    ...extra,
  });
  const url = await relay.listen(0);
  await pointWebhooksAt(h, seller.client_id, `${url}/notifications/webhook`);
  return { relay, url };
}

/** The value of one sample in Prometheus text (`labels` as written between the braces); 0 when it is absent. */
export function metricValue(text: string, name: string, labels = ''): number {
  const prefix = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? 0 : Number(line.slice(prefix.length));
}

/** Reads GET /metrics of the relay at `url` and returns one sample (see metricValue). */
export async function fetchMetric(url: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return metricValue(text, name, labels);
}
