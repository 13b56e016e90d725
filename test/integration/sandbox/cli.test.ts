// Issue 2: `npm run sandbox -- --port N [--data FILE]` as a real child process: it prints its URL once it accepts
// requests, keeps state in the data file across a restart, and refuses bad flags with exit code 2 and a clear message.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SandboxCli } from '../../support/sandbox-cli.ts';

const cli = new SandboxCli();

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
});
after(() => {
  cli.killAll();
  fs.rmSync(dir, { recursive: true, force: true });
});

// Each test runs its own child process on its own port and file, so they run side by side.
describe('sandbox command line (issue 2)', { concurrency: true }, () => {
  it('--port 0 picks a free port, prints the URL, and answers on it', async () => {
    const { child, url } = await cli.serve(['--port', '0']);
    const reply = await fetch(`${url}/sandbox/clock`);
    assert.equal(reply.status, 200);
    assert.match(((await reply.json()) as { now: string }).now, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(await cli.stop(child), 0, 'SIGTERM is a clean exit');
  });

  it('--data FILE keeps state across a restart', async () => {
    const file = path.join(dir, 'cli.sqlite');
    const first = await cli.serve(['--port', '0', '--data', file]);
    const created = await fetch(`${first.url}/sandbox/sellers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ country_code: 'BR' }),
    });
    assert.equal(created.status, 201);
    const seller = (await created.json()) as { client_id: string; client_secret: string };
    assert.equal(await cli.stop(first.child), 0);

    const second = await cli.serve(['--port', '0', '--data', file]);
    const token = await fetch(`${second.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret }),
    });
    assert.equal(token.status, 200, 'the seller made before the restart still exists');
    assert.equal(await cli.stop(second.child), 0);
  });

  for (const [args, message] of [
    [['--port', 'abc'], /--port needs a number from 0 to 65535, got "abc"/],
    [['--port', '70000'], /--port needs a number from 0 to 65535, got "70000"/],
    [['--port', '0', '--nope'], /unknown flag --nope/],
    [[], /--port is required/],
    [['--data', 'x.sqlite'], /--port is required/],
  ] as const) {
    it(`refuses ${JSON.stringify(args)} with exit code 2 and a clear message on stderr`, async () => {
      const exit = await cli.run([...args]);
      assert.equal(exit.code, 2);
      assert.match(exit.stderr, message);
      assert.match(exit.stderr, /Usage: npm run sandbox -- --port N/);
      assert.doesNotMatch(exit.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(exit.stdout, '');
    });
  }

  it('--help prints the usage on stdout and exits 0', async () => {
    const exit = await cli.run(['--help']);
    assert.equal(exit.code, 0);
    assert.match(exit.stdout, /^Usage: npm run sandbox -- --port N \[--data FILE\]/);
    assert.match(exit.stdout, /--data FILE/);
    assert.equal(exit.stderr, '');
  });

  it('a damaged data file stops the start with exit code 1 and one clear line, not a stack trace', async () => {
    const file = path.join(dir, 'damaged.sqlite');
    fs.writeFileSync(file, Buffer.alloc(4096, 0xa5));
    const exit = await cli.run(['--port', '0', '--data', file]);
    assert.equal(exit.code, 1);
    assert.equal(exit.stderr, `sandbox: data file ${file} cannot be used: it is not a SQLite database (file is not a database); move it away (or pass another --data file) to start with an empty sandbox\n`);
    assert.equal(exit.stdout, '');
  });
});
