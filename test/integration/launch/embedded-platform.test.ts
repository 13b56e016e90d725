// issue 4 "Zero-config default": the sandbox and the relay in-process on free ports, a seller and POS, the sandbox's
// webhook pointed at the relay, a kiosk key. Training state survives a restart.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPlatform } from '../../../launch/embedded-platform.ts';
import { connectSse } from '../../support/sse-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'embedded-platform-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function token(platformUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${platformUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { access_token: string }).access_token;
}

test('issue 4: zero config → a paid training order reaches the kiosk stream through the relay', async () => {
  const platform = await startEmbeddedPlatform({ dataDir: dir });
  const stream = await connectSse(`${platform.relayUrl}/events`, { key: platform.kioskKey });
  try {
    assert.equal(stream.status, 200);
    const access = await token(platform.platformUrl, platform.clientId, platform.clientSecret);
    const created = await fetch(`${platform.platformUrl}/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'x-idempotency-key': 'embedded-1', 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'qr',
        external_reference: 'training-1',
        total_amount: '12.00',
        config: { qr: { external_pos_id: platform.posId, mode: 'dynamic' } },
        transactions: { payments: [{ amount: '12.00' }] },
      }),
    });
    assert.equal(created.status, 201);
    const order = (await created.json()) as { id: string };
    await platform.sandbox.orders.pay(order.id, { outcome: 'approved' });
    await platform.sandbox.sweep();
    const messages = await stream.until((m) => m.some((e) => e.event === 'order.processed'));
    const processed = JSON.parse(messages.find((e) => e.event === 'order.processed')?.data ?? '{}') as { data: { id: string } };
    assert.equal(processed.data.id, order.id);
  } finally {
    stream.close();
    await platform.close();
  }
});

test('issue 4: training keeps its seller across restarts and never writes the client secret beside it', async () => {
  const first = await startEmbeddedPlatform({ dataDir: dir });
  const { clientId, userId, clientSecret } = first;
  await first.close();
  const second = await startEmbeddedPlatform({ dataDir: dir });
  try {
    assert.equal(second.clientId, clientId);
    assert.equal(second.userId, userId);
    assert.equal(second.clientSecret, clientSecret);
    assert.ok(!readFileSync(join(dir, 'training-identity.json'), 'utf8').includes(clientSecret));
    // The training clock can move an hour (past the relay's 300 s tolerance) without the relay refusing signatures.
    await second.sandbox.advance(3600);
    const stream = await connectSse(`${second.relayUrl}/events`, { key: second.kioskKey });
    try {
      const access = await token(second.platformUrl, second.clientId, second.clientSecret);
      const created = await fetch(`${second.platformUrl}/v1/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access}`, 'x-idempotency-key': 'embedded-2', 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'qr',
          external_reference: 'training-2',
          total_amount: '3.00',
          config: { qr: { external_pos_id: second.posId } },
          transactions: { payments: [{ amount: '3.00' }] },
        }),
      });
      const order = (await created.json()) as { id: string };
      await second.sandbox.sweep();
      await stream.until((m) => m.some((e) => e.event === 'order.created' && e.data.includes(order.id)));
      assert.equal(second.relay.metrics.get('relay_notifications_rejected_total', { reason: 'stale_timestamp' }), 0);
    } finally {
      stream.close();
    }
  } finally {
    await second.close();
  }
});

test("issue 13: training's \"customer pays\" is the launch's port: it pays the order on the sandbox, and rejects an order the sandbox does not have", async () => {
  const platform = await startEmbeddedPlatform({ dataDir: null });
  try {
    const access = await token(platform.platformUrl, platform.training.clientId, platform.training.clientSecret);
    const created = await fetch(`${platform.platformUrl}/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'x-idempotency-key': 'embedded-pays-1', 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'qr',
        external_reference: 'training-pays-1',
        total_amount: '7.00',
        config: { qr: { external_pos_id: platform.training.posId, mode: 'dynamic' } },
        transactions: { payments: [{ amount: '7.00' }] },
      }),
    });
    assert.equal(created.status, 201);
    const order = (await created.json()) as { id: string };
    await platform.training.simulatePayment(order.id, 'approved');
    assert.equal(platform.sandbox.state.orders.get(order.id)?.status, 'processed');
    await assert.rejects(platform.training.simulatePayment('ORDTST00000000000000000000000', 'approved'));
  } finally {
    await platform.close();
  }
});
