// Issue 2: `npm run sandbox -- --port N [--data FILE]`; bad input gets a clear error.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseSandboxArgs, SANDBOX_USAGE } from '../../../sandbox/cli-args.ts';

function error(argv: string[]): string {
  const parsed = parseSandboxArgs(argv);
  assert.equal(parsed.ok, false, `expected ${JSON.stringify(argv)} to be refused`);
  return parsed.ok ? '' : parsed.error;
}

describe('sandbox command-line flags', () => {
  it('reads --port and --data, as separate or inline values', () => {
    assert.deepEqual(parseSandboxArgs(['--port', '8080', '--data', 'sb.sqlite']), {
      ok: true,
      args: { port: 8080, host: '127.0.0.1', data: 'sb.sqlite', allowHosts: [], training: false, help: false },
    });
    const inline = parseSandboxArgs(['--port=0', '--data=/tmp/x.sqlite', '--host=0.0.0.0']);
    assert.ok(inline.ok);
    assert.equal(inline.args.port, 0);
    assert.equal(inline.args.data, '/tmp/x.sqlite');
    assert.equal(inline.args.host, '0.0.0.0');
  });

  it('accepts the whole port range, 0 to 65535', () => {
    for (const port of ['0', '1', '65535']) {
      const parsed = parseSandboxArgs(['--port', port]);
      assert.ok(parsed.ok, port);
      assert.equal(parsed.args.port, Number(port));
    }
  });

  it('refuses a port that is not a number from 0 to 65535, quoting what it got', () => {
    assert.match(error(['--port', 'abc']), /--port needs a number from 0 to 65535, got "abc"/);
    assert.match(error(['--port', '70000']), /got "70000"/);
    assert.match(error(['--port', '-1']), /got "-1"/);
    assert.match(error(['--port', '8.5']), /got "8.5"/);
    assert.match(error(['--port=']), /got ""/);
    assert.match(error(['--port']), /got nothing/);
    assert.match(error(['--port', '--data', 'x']), /got nothing/);
  });

  it('requires --port (except with --help or --training)', () => {
    assert.match(error([]), /--port is required/);
    assert.match(error(['--data', 'x.sqlite']), /--port is required/);
    assert.ok(parseSandboxArgs(['--help']).ok);
    assert.ok(parseSandboxArgs(['--training']).ok);
  });

  it('refuses unknown flags and stray arguments by name', () => {
    assert.match(error(['--port', '0', '--nope']), /unknown flag --nope/);
    assert.match(error(['--port', '0', '--nope=1']), /unknown flag --nope$/);
    assert.match(error(['--port', '0', 'extra']), /unexpected argument "extra"/);
  });

  it('refuses flags without their value, and values on flags that take none', () => {
    assert.match(error(['--port', '0', '--data']), /--data needs a file path/);
    assert.match(error(['--port', '0', '--data=']), /--data needs a file path/);
    assert.match(error(['--port', '0', '--host']), /--host needs an address/);
    assert.match(error(['--port', '0', '--training=yes']), /--training takes no value/);
  });

  it('--help and -h ask for the usage text, which names every flag', () => {
    for (const flag of ['--help', '-h']) {
      const parsed = parseSandboxArgs([flag]);
      assert.ok(parsed.ok);
      assert.equal(parsed.args.help, true);
    }
    for (const flag of ['--port', '--data', '--host', '--allow-host', '--training', '--help']) assert.ok(SANDBOX_USAGE.includes(flag), flag);
  });

  it('issue 12: --allow-host adds control API host names, repeatable; a port or junk is refused by name', () => {
    const parsed = parseSandboxArgs(['--port', '0', '--allow-host', 'sandbox', '--allow-host=[::2]', '--allow-host', 'Sandbox.Local']);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.args.allowHosts, ['sandbox', '[::2]', 'Sandbox.Local']);
    assert.match(error(['--port', '0', '--allow-host', 'sandbox:8080']), /--allow-host needs a host name or address without a port, got "sandbox:8080"/);
    assert.match(error(['--port', '0', '--allow-host', 'a b']), /got "a b"/);
    assert.match(error(['--port', '0', '--allow-host']), /--allow-host needs .* got nothing/);
  });
});
