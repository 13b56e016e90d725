// Issue 18 "Heartbeat": a real kiosk core (training: the embedded sandbox and relay) reports to its relay as it starts,
// with the app's version, its POS and a kiosk id it keeps across restarts; no secret of the core is in its record.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTrainingCore, until } from '../../support/kiosk-cores.ts';
import { metricValue } from '../../support/relay-harness.ts';

const VERSION = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8')) as { version: string }).version;

/** The kiosk id of the one kiosk the relay's /metrics knows, once it has heard from it. */
async function reportedKiosk(metrics: () => Promise<string>): Promise<{ seller: string; kiosk: string; text: string }> {
  return until(async () => {
    const text = await metrics();
    const match = /^relay_kiosk_info\{seller="(\d+)",kiosk="([^"]+)",pos="CAJA-1",version="[^"]+"\} 1$/m.exec(text);
    return match ? { seller: match[1] as string, kiosk: match[2] as string, text } : undefined;
  }, 'the heartbeat of the kiosk');
}

describe('kiosk core heartbeat', () => {
  it('reports to its relay at start, with the package version and the same kiosk id after a restart', async () => {
    const first = await startTrainingCore();
    const { seller, kiosk, text } = await reportedKiosk(() => first.platform.relay.metrics.exposition());
    assert.equal(metricValue(text, 'relay_kiosk_info', `seller="${seller}",kiosk="${kiosk}",pos="CAJA-1",version="${VERSION}"`), 1);
    assert.equal(metricValue(text, 'relay_kiosk_silent', `seller="${seller}",kiosk="${kiosk}",pos="CAJA-1"`), 0);
    for (const secret of first.core.secrets()) assert.ok(!text.includes(secret), 'no secret of the core reaches the relay');
    const dir = first.dir;
    await first.core.stop();
    await first.platform.close();

    // The same data dir: the kiosk keeps its id (a new training relay hears the same kiosk).
    const second = await startTrainingCore({}, dir);
    try {
      // This relay's counter starts at 0: once it is 1 the record is the second core's, not the one kept in the file.
      await until(() => (second.platform.relay.metrics.get('relay_heartbeats_total', { result: 'recorded' }) > 0 ? true : undefined), 'the second heartbeat');
      const again = await reportedKiosk(() => second.platform.relay.metrics.exposition());
      assert.equal(again.kiosk, kiosk);
      assert.equal(again.text.match(/^relay_kiosk_info\{/gm)?.length, 1, 'one kiosk, not a second id');
    } finally {
      await second.close();
    }
  });
});
