// Issue 2: `npm run sandbox -- --port N [--data FILE]` as a real child process: it prints its URL once it accepts
// requests, keeps state in the data file across a restart, and refuses bad flags with exit code 2 and a clear message.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repoRoot = path.join(import.meta.dirname, '..', '..', '..');
const children = new Set<ChildProcess>();

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/main.ts', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** Runs the command to its end. */
function run(args: string[]): Promise<Exit> {
  const child = start(args);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Starts a server and resolves with its base URL once the line that announces it appears on stdout. */
function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = start(args);
  let stdout = '';
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout);
      if (match) resolve({ child, url: match[0] });
    });
    child.on('close', (code) => reject(new Error(`the sandbox exited with ${code} before announcing its URL: ${stderr}`)));
  });
}

/** SIGTERM, which the sandbox handles by closing cleanly (the data file is flushed and closed). */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.on('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
});
after(() => {
  for (const child of children) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

// Each test runs its own child process on its own port and file, so they run side by side.
describe('sandbox command line (issue 2)', { concurrency: true }, () => {
  it('--port 0 picks a free port, prints the URL, and answers on it', async () => {
    const { child, url } = await serve(['--port', '0']);
    const reply = await fetch(`${url}/sandbox/clock`);
    assert.equal(reply.status, 200);
    assert.match(((await reply.json()) as { now: string }).now, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(await stop(child), 0, 'SIGTERM is a clean exit');
  });

  it('--data FILE keeps state across a restart', async () => {
    const file = path.join(dir, 'cli.sqlite');
    const first = await serve(['--port', '0', '--data', file]);
    const created = await fetch(`${first.url}/sandbox/sellers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ country_code: 'BR' }),
    });
    assert.equal(created.status, 201);
    const seller = (await created.json()) as { client_id: string; client_secret: string };
    assert.equal(await stop(first.child), 0);

    const second = await serve(['--port', '0', '--data', file]);
    const token = await fetch(`${second.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret }),
    });
    assert.equal(token.status, 200, 'the seller made before the restart still exists');
    assert.equal(await stop(second.child), 0);
  });

  for (const [args, message] of [
    [['--port', 'abc'], /--port needs a number from 0 to 65535, got "abc"/],
    [['--port', '70000'], /--port needs a number from 0 to 65535, got "70000"/],
    [['--port', '0', '--nope'], /unknown flag --nope/],
    [[], /--port is required/],
    [['--data', 'x.sqlite'], /--port is required/],
  ] as const) {
    it(`refuses ${JSON.stringify(args)} with exit code 2 and a clear message on stderr`, async () => {
      const exit = await run([...args]);
      assert.equal(exit.code, 2);
      assert.match(exit.stderr, message);
      assert.match(exit.stderr, /Usage: npm run sandbox -- --port N/);
      assert.doesNotMatch(exit.stderr, /\n\s+at /, 'no stack trace');
      assert.equal(exit.stdout, '');
    });
  }

  it('--help prints the usage on stdout and exits 0', async () => {
    const exit = await run(['--help']);
    assert.equal(exit.code, 0);
    assert.match(exit.stdout, /^Usage: npm run sandbox -- --port N \[--data FILE\]/);
    assert.match(exit.stdout, /--data FILE/);
    assert.equal(exit.stderr, '');
  });

  it('a damaged data file stops the start with exit code 1 and one clear line, not a stack trace', async () => {
    const file = path.join(dir, 'damaged.sqlite');
    fs.writeFileSync(file, Buffer.alloc(4096, 0xa5));
    const exit = await run(['--port', '0', '--data', file]);
    assert.equal(exit.code, 1);
    assert.equal(exit.stderr, `sandbox: data file ${file} cannot be used: it is not a SQLite database (file is not a database); move it away (or pass another --data file) to start with an empty sandbox\n`);
    assert.equal(exit.stdout, '');
  });
});
