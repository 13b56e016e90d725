// Kiosk cores on real parts for the integration tests: a training core on the embedded sandbox and relay, and a core
// without training against a sandbox the test drives (its own seller, country and clock). Real SQLite in a temp dir,
// real servers on 127.0.0.1; the vault is memory (the keychain has its own tests, and the launch's live mode tests
// use the real one).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compose } from '../../electron/core/compose.ts';
import type { KioskCore, KioskCoreOptions } from '../../electron/core/kiosk-core.ts';
import { MemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { createLogger } from '../../electron/core/host/logger.ts';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../launch/embedded-platform.ts';
import { startSandbox, type Harness, type SellerWithToken } from './sandbox-harness.ts';
import type { Connectivity, CountryCode, KioskEvent } from '../../shared/kiosk-api.ts';

export const PIN = '2468';

export interface RunningCore {
  core: KioskCore;
  vault: MemoryVault;
  events: KioskEvent[];
  logLines: string[];
  dir: string;
  /** Stops the core (and what the helper started), then removes the temp dir. */
  close(): Promise<void>;
}

export interface TrainingCore extends RunningCore {
  platform: EmbeddedPlatform;
}

export interface LiveCore extends RunningCore {
  h: Harness;
  seller: SellerWithToken;
}

type Extra = Partial<Pick<KioskCoreOptions, 'printer' | 'openBrowser' | 'pollIntervalMs' | 'fetch'>>;

/**
 * A core composed over `dir` on `platform` as both helpers build it (memory vault, log lines kept, events recorded),
 * started; its close stops it, closes `platform` and removes `dir`.
 */
async function startCore(
  dir: string,
  platform: { close(): Promise<void> },
  options: Pick<KioskCoreOptions, 'platformUrl' | 'relay' | 'training'>,
  extra: Extra | undefined,
): Promise<RunningCore> {
  const vault = new MemoryVault();
  const logLines: string[] = [];
  const core = await compose({
    dataDir: dir,
    ...options,
    vault,
    logger: createLogger({ write: (line) => logLines.push(line) }),
    pollIntervalMs: 200,
    ...extra,
  });
  const events: KioskEvent[] = [];
  core.events.subscribe((event) => events.push(event));
  await core.start();
  return {
    core,
    vault,
    events,
    logLines,
    dir,
    async close() {
      await core.stop();
      await platform.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A training core as the launch builds it, started, with the manager PIN set. */
export async function startTrainingCore(extra: Extra = {}, dir = mkdtempSync(join(tmpdir(), 'kiosk-core-'))): Promise<TrainingCore> {
  const platform = await startEmbeddedPlatform({ dataDir: join(dir, 'training') });
  const running = await startCore(dir, platform, { platformUrl: platform.platformUrl, relay: { url: platform.relayUrl, key: platform.kioskKey }, training: platform.training }, extra);
  const pin = await running.core.api.setPin({ newPin: PIN });
  if (!pin.ok) {
    // A second start over the same data dir keeps the PIN of the first.
    assert.equal(pin.error.code, 'current_pin_required');
  }
  return { ...running, platform };
}

/**
 * A core that is not in training, against a sandbox seller of `country` with the POS CAJA-1 (the kiosk's default),
 * started, then connected by a manager with client credentials (the first connect sets the PIN) unless `connect` is
 * false, naming the country when `country` is given to connect.
 */
export async function startLiveCore(
  options: {
    country?: CountryCode;
    connect?: boolean;
    extra?: Extra;
    /** Something the kiosk reaches the sandbox through (a proxy), given the sandbox's URL; closed with the core. */
    front?: (sandboxUrl: string) => Promise<{ url: string; close(): Promise<void> }>;
  } = {},
): Promise<LiveCore> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-live-core-'));
  // The sandbox sends its webhooks from its sweep; a short interval keeps the relay tests quick.
  const h = await startSandbox({ sweepIntervalMs: 100 });
  const seller = await h.seller(options.country ?? 'AR', ['CAJA-1']);
  const front = options.front ? await options.front(h.url) : null;
  const platform = front ? { close: async () => (await front.close(), await h.close()) } : h;
  const running = await startCore(dir, platform, { platformUrl: front?.url ?? h.url, relay: null, training: null }, options.extra);
  if (options.connect !== false) {
    const connected = await running.core.api.connect({
      method: 'client_credentials',
      clientId: seller.client_id,
      clientSecret: seller.client_secret,
      pin: PIN,
      ...(options.country ? { countryCode: options.country } : {}),
    });
    assert.ok(connected.ok, JSON.stringify(connected));
  }
  return { ...running, h, seller };
}

/** Waits for `read` to return something (real servers answer when they answer); fails after timeoutMs. */
export async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The relay status the core last announced. */
export function relayStatus(events: KioskEvent[]): string | undefined {
  return lastConnectivity(events)?.relay;
}

/** The connectivity of the last connectivity.changed event. */
export function lastConnectivity(events: KioskEvent[]): Connectivity | undefined {
  return events.filter((e): e is Extract<KioskEvent, { type: 'connectivity.changed' }> => e.type === 'connectivity.changed').at(-1)?.connectivity;
}
