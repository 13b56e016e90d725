// The live-mode trio as a store runs it (issue 12): the platform sandbox, the webhook relay and the kiosk (the web
// shell, launch/web.ts) as three separate processes (./node-process.ts), the kiosk on a real keychain
// (./private-keyring.ts), the relay with a real SQLite log. One seller with one POS, its notifications pointed at the
// relay, the kiosk connected to it with the manager PIN and subscribed to the relay, and the counter display's event
// stream open: what live-platform-flows.ts, live/push-health.test.ts and live/forged-webhooks.test.ts start from
// (issue 28: one helper instead of three copies of the set-up).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeProcess, type NodeProcess } from './node-process.ts';
import { connectSse, type SseConnection } from './sse-client.ts';
import { keychainForTests } from './private-keyring.ts';
import type { Connectivity } from '../../shared/kiosk-api.ts';

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

export interface LiveSeller {
  user_id: string;
  client_id: string;
  client_secret: string;
  webhook_secret: string;
}

/** The keychain the kiosk child needs (live mode refuses to run without one, issue 4) and the children's environment. */
export interface LiveKeychain {
  /** Why the trio cannot run here, or false. REQUIRE_SECRET_SERVICE=1 (CI) makes a missing keychain a failure, not a skip. */
  skip: string | false;
  /** process.env with the keychain's bus, without RELAY_* and KIOSK_* (the children take their settings from flags only). */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/** Call at a test file's top level, before anything touches the vault (./private-keyring.ts). */
export async function liveKeychain(): Promise<LiveKeychain> {
  const keychain = await keychainForTests();
  const found = 'skip' in keychain ? null : keychain;
  const env: NodeJS.ProcessEnv = { ...(found?.env ?? {}), ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('RELAY_') || name.startsWith('KIOSK_')) delete env[name];
  const skip = 'skip' in keychain ? (process.env.REQUIRE_SECRET_SERVICE === '1' ? false : keychain.skip) : false;
  return { skip, env, close: async () => found?.close() };
}

export interface LiveTrioOptions {
  keychain: LiveKeychain;
  /** The temp folder's name prefix (the sandbox's, the relay's and the kiosk's data live in it). */
  name: string;
  pin: string;
  /** The seller's point of sale, the kiosk's posId. */
  pos: string;
  /** More sandbox flags: `--profile documented`, `--webhook-ts-ahead 400`. */
  sandboxArgs?: string[];
  /** The relay's admin key (/metrics, /fleet); absent: the relay has none. */
  adminKey?: string;
}

export interface LiveTrio {
  readonly dir: string;
  readonly sandbox: NodeProcess;
  readonly relay: NodeProcess;
  readonly kiosk: NodeProcess;
  readonly platformUrl: string;
  readonly relayUrl: string;
  /** The kiosk's page with its secret (`http://127.0.0.1:<port>/?k=<secret>`), for a browser. */
  readonly kioskUrl: string;
  readonly kioskOrigin: string;
  readonly kioskSecret: string;
  /** The kiosk's key at the relay. */
  readonly relayKey: string;
  /** The seller the kiosk is connected to. */
  readonly seller: LiveSeller;
  /** The counter display's event stream (/api/events), open since the kiosk went live. */
  readonly screen: SseConnection;
  /** A call to the sandbox (its control routes and its platform API). */
  control(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** One KioskApi call through the web shell, as the counter display makes it. */
  call<T>(method: string, input: unknown): Promise<ApiResult<T>>;
  /** The same, asserting it succeeded. */
  api<T>(method: string, input: unknown): Promise<T>;
  /** Another seller on the sandbox, with one POS named as the kiosk's and notifications pointed nowhere yet. */
  newSeller(): Promise<LiveSeller>;
  /** Every status the counter display was told of for an order, in order. */
  shownStatuses(id: string): string[];
  /** The last connectivity the counter display was told of, or null. */
  lastConnectivity(): Connectivity | null;
  /** Waits (30 s at most) until the kiosk's stream on the relay is live. */
  untilRelayLive(): Promise<void>;
  /**
   * Stops the relay (asserting a clean exit) and starts it again on the same port with the same log and `secret` as
   * its webhook secret, as after a rotation on the platform's side.
   */
  restartRelay(secret: string): Promise<void>;
  /** Stops the three (SIGTERM) and removes the folder; resolves with their exit codes, kiosk, relay, sandbox. */
  stop(): Promise<Array<number | null>>;
}

const READY = /listening on (http:\/\/127\.0\.0\.1:(\d+))/;
const KIOSK_READY = /^Kiosk \(live mode, platform \S+\) at ((http:\/\/127\.0\.0\.1:\d+)\/\?k=([0-9a-f]+))$/m;

/** Starts the trio; on a failure part-way, stops what did start and removes the folder before rethrowing. */
export async function startLiveTrio(options: LiveTrioOptions): Promise<LiveTrio> {
  const { env } = options.keychain;
  const dir = mkdtempSync(join(tmpdir(), `kiosk-${options.name}-`));
  const relayKey = randomBytes(24).toString('hex');
  const started: NodeProcess[] = [];
  let screen: SseConnection | null = null;
  try {
    const sandbox = await startNodeProcess('sandbox/main.ts', ['--port', '0', '--data', join(dir, 'sandbox.sqlite'), ...(options.sandboxArgs ?? [])], { ready: READY, env });
    started.push(sandbox);
    const platformUrl = sandbox.ready[1] as string;

    const control = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${platformUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const newSeller = async (): Promise<LiveSeller> => {
      const created = await control('POST', '/sandbox/sellers', { country_code: 'AR', pos: [options.pos] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const seller = created.body as unknown as Omit<LiveSeller, 'webhook_secret'>;
      const hook = await control('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { webhook_url: 'http://127.0.0.1:9/not-yet' });
      assert.equal(hook.status, 200, JSON.stringify(hook.body));
      return { user_id: seller.user_id, client_id: seller.client_id, client_secret: seller.client_secret, webhook_secret: String(hook.body.webhook_secret) };
    };
    const seller = await newSeller();

    let relayPort = '0';
    const startRelay = async (secret: string): Promise<NodeProcess> => {
      const args = ['--port', relayPort, '--platform-url', platformUrl, '--webhook-secret', secret, '--kiosk-key', `${relayKey}=${seller.user_id}`];
      if (options.adminKey) args.push('--admin-key', options.adminKey);
      const child = await startNodeProcess('relay/main.ts', [...args, '--data', join(dir, 'relay.sqlite')], { ready: READY, env });
      relayPort = child.ready[2] as string;
      return child;
    };
    let relay = await startRelay(seller.webhook_secret);
    started.push(relay);
    const relayUrl = relay.ready[1] as string;
    const hooked = await control('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { webhook_url: `${relayUrl}/notifications/webhook` });
    assert.equal(hooked.status, 200, JSON.stringify(hooked.body));

    const kiosk = await startNodeProcess('launch/web.ts', ['--platform-url', platformUrl, '--data-dir', join(dir, 'kiosk'), '--no-open', '--port', '0'], { ready: KIOSK_READY, env });
    started.push(kiosk);
    const [, kioskUrl, kioskOrigin, kioskSecret] = kiosk.ready as unknown as [string, string, string, string];

    const call = async <T>(method: string, input: unknown): Promise<ApiResult<T>> => {
      const response = await fetch(`${kioskOrigin}/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-kiosk-secret': kioskSecret },
        body: JSON.stringify(input),
      });
      return (await response.json()) as ApiResult<T>;
    };
    const api = async <T>(method: string, input: unknown): Promise<T> => {
      const result = await call<T>(method, input);
      assert.ok(result.ok, `${method}: ${JSON.stringify(result)}`);
      return result.value;
    };
    const untilRelayLive = async (): Promise<void> => {
      const deadline = Date.now() + 30_000;
      while ((await api<Connectivity>('getConnectivity', {})).relay !== 'live') {
        assert.ok(Date.now() < deadline, 'the kiosk never went live on the relay');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    await api('connect', { method: 'client_credentials', clientId: seller.client_id, clientSecret: seller.client_secret, countryCode: 'AR', pin: options.pin });
    await api('updateSettings', { pin: options.pin, patch: { relayUrl, relayKey, posId: options.pos } });
    const events = await connectSse(`${kioskOrigin}/api/events?k=${kioskSecret}`);
    screen = events;
    await untilRelayLive();

    return {
      dir,
      sandbox,
      get relay() {
        return relay;
      },
      kiosk,
      platformUrl,
      relayUrl,
      kioskUrl,
      kioskOrigin,
      kioskSecret,
      relayKey,
      seller,
      screen: events,
      control,
      call,
      api,
      newSeller,
      shownStatuses: (id) =>
        events.messages
          .filter((m) => m.event === 'order.updated')
          .map((m) => (JSON.parse(m.data) as { order: { id: string; status: string } }).order)
          .filter((o) => o.id === id)
          .map((o) => o.status),
      lastConnectivity: () => {
        const last = events.messages.filter((m) => m.event === 'connectivity.changed').at(-1);
        return last ? (JSON.parse(last.data) as { connectivity: Connectivity }).connectivity : null;
      },
      untilRelayLive,
      restartRelay: async (secret) => {
        assert.equal(await relay.stop(), 0, 'the relay stops cleanly on SIGTERM');
        relay = await startRelay(secret);
      },
      stop: async () => {
        events.close();
        const codes = await Promise.all([kiosk.stop(), relay.stop(), sandbox.stop()]);
        rmSync(dir, { recursive: true, force: true });
        return codes;
      },
    };
  } catch (error) {
    screen?.close();
    await Promise.all(started.map((child) => child.stop()));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
