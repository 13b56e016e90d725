// issue 14 "cold start, round 3": in training the kiosk's core is composed before the embedded platform is built, on
// the platform's addresses bound beforehand (launch/training-ports.ts), so the first screen's reads never wait for the
// sandbox and the relay; the platform is then built on those very addresses, and the kiosk starts against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKiosk } from '../../../launch/start-kiosk.ts';
import { bindTrainingPorts } from '../../../launch/training-ports.ts';
import { createLogger } from '../../../electron/core/host/logger.ts';
import type { KioskSettings, SessionState } from '../../../shared/kiosk-api.ts';

const logger = createLogger({ write: () => undefined });
const training = (dataDir: string) => ({ dataDir, mode: 'training' as const, platformUrl: null, port: 0, open: false });

test('issue 14: the composed core answers the first screen with the training platform it then starts on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'training-ports-'));
  try {
    for (const run of ['first start', 'restart']) {
      const seen: Array<{ settings: KioskSettings; session: SessionState; sandboxBuilt: boolean }> = [];
      const kiosk = await startKiosk(training(dir), {
        logger,
        composed: async (core) => {
          const [settings, session] = await Promise.all([core.api.getSettings({}), core.api.getSession({})]);
          assert.ok(settings.ok && session.ok);
          seen.push({ settings: settings.value, session: session.value, sandboxBuilt: existsSync(join(dir, 'training', 'training-sandbox.sqlite')) });
        },
      });
      try {
        const [first] = seen;
        assert.ok(first, run);
        const { settings, session, sandboxBuilt } = first;
        // A first start reads its first screen before the sandbox has made its data file.
        if (run === 'first start') assert.equal(sandboxBuilt, false);
        // The addresses read before the platform existed are the ones it answers on.
        assert.equal(settings.platformUrl, kiosk.platformUrl, run);
        assert.match(settings.relayUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/, run);
        assert.equal(session.training, true, run);
        assert.equal(settings.countryCode, 'AR', run);
        assert.equal(session.currency, 'ARS', run);
        assert.ok((kiosk.startup['core'] ?? Infinity) <= (kiosk.startup['platform'] ?? -Infinity), JSON.stringify(kiosk.startup));
        // Started against that platform: signed in with the training credentials.
        const started = await kiosk.core.api.getSession({});
        assert.ok(started.ok && started.value.state === 'connected', JSON.stringify(started));
        const order = await kiosk.core.api.createOrder({ amount: '12.50' });
        assert.ok(order.ok && order.value.status === 'created', JSON.stringify(order));
        // The training secret is redacted once known.
        assert.ok(kiosk.secrets().every((secret) => secret.length > 0));
      } finally {
        await kiosk.close();
      }
      // Closing the kiosk closes the addresses it bound.
      await assert.rejects(fetch(`${kiosk.platformUrl}/`), run);
      await assert.rejects(fetch(`${seen[0]?.settings.relayUrl}/`), run);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('issue 14: training ports bound for a platform that never started are closed by close()', async () => {
  const ports = await bindTrainingPorts();
  assert.notEqual(ports.platformUrl, ports.relayUrl);
  assert.ok(ports.sandboxServer.listening && ports.relayServer.listening);
  await ports.close();
  assert.ok(!ports.sandboxServer.listening && !ports.relayServer.listening);
  await ports.close();
});
