// issue 27 item 1: the sandbox can play a platform whose clock runs ahead of the receiver's, for webhook signatures only
// (sandbox/domain/webhook-ts.ts). The relay refuses a ts more than 300 s from its clock (platform-facts "Webhooks"), so
// this is how a test makes every webhook stale while orders, expiries and deliveries keep the sandbox's own time.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sign } from '../../../node-common/webhook-signature.ts';
import { placeOrder, pointWebhooksAt, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { parseSandboxArgs } from '../../../sandbox/cli-args.ts';

function tsOf(signature: unknown): number {
  const match = typeof signature === 'string' ? /(?:^|,)ts=(\d+)/.exec(signature) : null;
  assert.ok(match?.[1], `x-signature ${String(signature)}`);
  return Number(match[1]);
}

describe('sandbox: webhooks signed with a ts ahead of its clock (--webhook-ts-ahead, PUT /sandbox/webhook-ts)', () => {
  let h: Harness;
  let receiver: Receiver;
  let seller: SellerWithToken;
  let secret: string;

  before(async () => {
    h = await startSandbox({ webhookTsAheadSeconds: 400 });
    receiver = await startReceiver(200);
    seller = await h.seller();
    secret = await pointWebhooksAt(h, seller.client_id, `${receiver.url}/hook`);
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('signs with ts = sandbox clock + the skew, still signed with the secret (only the time is off)', async () => {
    assert.deepEqual((await h.request('GET', '/sandbox/webhook-ts')).body, { ahead_seconds: 400 });
    const order = await placeOrder(h, seller);
    await h.sandbox.sweep();
    const [received] = await receiver.waitFor(1);
    assert.ok(received);
    assert.equal(tsOf(received.headers['x-signature']), Math.floor(h.clock.now() / 1000) + 400);
    // The HMAC is over the shifted ts as sent (platform-facts "Webhooks": the manifest uses ts exactly as sent).
    const ts = /(?:^|,)ts=(\d+)/.exec(String(received.headers['x-signature']))?.[1];
    assert.match(String(received.headers['x-signature']), new RegExp(`v1=${sign(secret, String(order.id), String(received.headers['x-request-id']), String(ts))}$`));
  });

  it('changes the skew at runtime through the control API, and refuses what is not whole seconds within a week', async () => {
    const set = await h.request('PUT', '/sandbox/webhook-ts', { body: { ahead_seconds: -30 } });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body, { ahead_seconds: -30 });
    const before = receiver.received.length;
    await placeOrder(h, seller);
    await h.sandbox.sweep();
    const all = await receiver.waitFor(before + 1);
    assert.equal(tsOf(all.at(-1)?.headers['x-signature']), Math.floor(h.clock.now() / 1000) - 30);
    for (const body of [{ ahead_seconds: 1.5 }, { ahead_seconds: '400' }, { ahead_seconds: 8 * 24 * 3600 }, {}, { ahead_seconds: 1, extra: true }]) {
      const refused = await h.request('PUT', '/sandbox/webhook-ts', { body });
      assert.equal(refused.status, 400, JSON.stringify(body));
      assert.match(refused.text, /ahead_seconds/);
    }
    assert.deepEqual((await h.request('GET', '/sandbox/webhook-ts')).body, { ahead_seconds: -30 }, 'a refused value changes nothing');
  });

  it('reads --webhook-ts-ahead from the command line, negative values included, with a clear error otherwise', () => {
    const ahead = parseSandboxArgs(['--port', '0', '--webhook-ts-ahead', '400']);
    assert.ok(ahead.ok);
    assert.equal(ahead.args.webhookTsAhead, 400);
    const behind = parseSandboxArgs(['--port', '0', '--webhook-ts-ahead', '-120']);
    assert.ok(behind.ok);
    assert.equal(behind.args.webhookTsAhead, -120);
    for (const bad of [['--webhook-ts-ahead'], ['--webhook-ts-ahead', 'soon'], ['--webhook-ts-ahead=1.5'], ['--webhook-ts-ahead', '9999999']]) {
      const parsed = parseSandboxArgs(['--port', '0', ...bad]);
      assert.equal(parsed.ok, false, bad.join(' '));
      if (!parsed.ok) assert.match(parsed.error, /--webhook-ts-ahead needs/);
    }
  });
});
