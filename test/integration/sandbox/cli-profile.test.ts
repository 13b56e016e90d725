// issue 26: `npm run sandbox -- --profile documented|seed` as a real child process: the documented profile answers the
// real platform's documented shapes from the first request, seed is the default, and a bad value exits non-zero with a
// clear message and no stack trace.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxCli } from '../../support/sandbox-cli.ts';

const cli = new SandboxCli();
after(() => cli.killAll());

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
  const reply = await fetch(url, init);
  return { status: reply.status, body: (await reply.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire JSON
}

describe('sandbox --profile (issue 26)', { concurrency: true }, () => {
  it('--profile documented: says so, GET /sandbox/profile agrees, and orders are ORDTST + 26 in ARG', async () => {
    const { child, url, line } = await cli.serve(['--port', '0', '--profile', 'documented']);
    try {
      assert.match(line, /\(profile: documented\)$/);
      assert.deepEqual((await json(`${url}/sandbox/profile`)).body, { profile: 'documented' });
      const seller = (await json(`${url}/sandbox/sellers`, { method: 'POST', body: JSON.stringify({ country_code: 'AR' }) })).body;
      const token = (await json(`${url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret }),
      })).body.access_token as string;
      const order = await json(`${url}/v1/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-idempotency-key': 'cli-profile-1' },
        body: JSON.stringify({ type: 'qr', external_reference: 'cli-1', total_amount: '10.00', config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } }, transactions: { payments: [{ amount: '10.00' }] } }),
      });
      assert.equal(order.status, 201);
      assert.match(order.body.id, /^ORDTST[A-Z0-9]{26}$/);
      assert.equal(order.body.country_code, 'ARG');
    } finally {
      assert.equal(await cli.stop(child), 0);
    }
  });

  it('without --profile (or with --profile seed) the profile is seed and the line says nothing more', async () => {
    for (const args of [['--port', '0'], ['--port', '0', '--profile=seed']]) {
      const { child, url, line } = await cli.serve(args);
      try {
        assert.doesNotMatch(line, /profile/);
        assert.deepEqual((await json(`${url}/sandbox/profile`)).body, { profile: 'seed' });
      } finally {
        assert.equal(await cli.stop(child), 0);
      }
    }
  });

  for (const [args, message] of [
    [['--port', '0', '--profile', 'real'], /--profile needs one of seed, documented, got "real"/],
    [['--port', '0', '--profile'], /--profile needs one of seed, documented, got nothing/],
  ] as const) {
    it(`refuses ${JSON.stringify(args)} with exit code 2 and a clear message`, async () => {
      const exit = await cli.run([...args]);
      assert.equal(exit.code, 2);
      assert.match(exit.stderr, message);
      assert.match(exit.stderr, /--profile NAME/, 'the usage names the flag');
      assert.doesNotMatch(exit.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(exit.stdout, '');
    });
  }
});
