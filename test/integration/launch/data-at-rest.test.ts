// issue 12 "the data at rest and the process", through the web shell's launch (launch/run-web.ts, what `npm run web`
// runs) in training mode on real parts: the data folder 0700 and every file in it 0600; the training secrets only in
// <dataDir>/training/; the logger given the launch's whole secret list; 400 to a request line the server cannot read;
// and launch/web.ts as a real process refusing a damaged kiosk.sqlite with one line.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import Database from 'better-sqlite3';
import { REDACTED } from '../../../electron/core/host/logger.ts';
import { SECRET_NAMES } from '../../../electron/core/ports.ts';
import { KeytarVault } from '../../../electron/core/vault/keytar-vault.ts';
import { runWeb, type RunningWeb } from '../../../launch/run-web.ts';
import { trainingVaultProfile } from '../../../launch/start-kiosk.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const PIN = '2580';
const modeOf = (path: string) => statSync(path).mode & 0o777;

/** Every file and folder under `dir`, as paths relative to it. */
function tree(dir: string): { files: string[]; dirs: string[] } {
  const files: string[] = [];
  const dirs: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        dirs.push(relative(dir, path));
        walk(path);
      } else files.push(relative(dir, path));
    }
  };
  walk(dir);
  return { files, dirs };
}

/** The training secrets as the sandbox itself keeps them: read straight from its data file. */
function trainingSecretsOnDisk(dataDir: string): { clientSecrets: string[]; webhookSecrets: string[]; tokens: string[] } {
  const db = new Database(join(dataDir, 'training', 'training-sandbox.sqlite'), { readonly: true });
  try {
    const rows = (kind: string) => db.prepare('SELECT id, body FROM records WHERE kind = ?').all(kind) as Array<{ id: string; body: string }>;
    const applications = rows('application').map((r) => JSON.parse(r.body) as { client_secret: string; webhook_secret?: string });
    return {
      clientSecrets: applications.map((a) => a.client_secret),
      webhookSecrets: applications.flatMap((a) => (a.webhook_secret ? [a.webhook_secret] : [])),
      tokens: [...rows('access_token'), ...rows('refresh_token')].map((r) => r.id),
    };
  } finally {
    db.close();
  }
}

describe('the web shell launch in training mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-at-rest-'));
  let stderr = '';
  let running: RunningWeb;
  let umask = 0;
  let vaultKind = 'memory';

  before(async () => {
    // The folder exists from before with the mode a 022 umask gives; the launch must tighten it.
    chmodSync(dir, 0o755);
    umask = process.umask(0o022);
    const result = await runWeb(['--data-dir', dir, '--no-open', '--training'], {}, { stdout: () => undefined, stderr: (text) => void (stderr += text) });
    assert.ok(!('exitCode' in result), `the launch failed: ${stderr}`);
    running = result;
    const api = running.kiosk.core.api;
    const session = await api.getSession({});
    assert.ok(session.ok);
    vaultKind = session.value.vault;
    assert.ok((await api.setPin({ newPin: PIN })).ok);
    assert.ok((await api.updateSettings({ pin: PIN, patch: { storeName: 'Kiosco Central' } })).ok);
    const order = await api.createOrder({ amount: '25.00' });
    assert.ok(order.ok, JSON.stringify(order));
    const paid = await api.simulatePayment({ id: order.value.id, outcome: 'approved' });
    assert.ok(paid.ok, JSON.stringify(paid));
  });
  after(async () => {
    await running?.stop();
    // Under a keychain (CI's throwaway keyring) training kept its secrets in entries of this folder: remove them.
    if (vaultKind === 'keychain') {
      const vault = new KeytarVault({ profile: trainingVaultProfile(dir), timeoutMs: 5_000 });
      for (const name of SECRET_NAMES) await vault.delete(name).catch(() => undefined);
    }
    process.umask(umask);
    rmSync(dir, { recursive: true, force: true });
  });

  test('issue 12: the data folder and training/ are 0700, and every file in them 0600 (SQLite -wal and -shm included)', () => {
    const { files, dirs } = tree(dir);
    assert.equal(modeOf(dir), 0o700, 'the data folder, tightened from 0755');
    assert.ok(dirs.includes('training'));
    for (const folder of dirs) assert.equal(modeOf(join(dir, folder)), 0o700, folder);
    for (const name of ['kiosk.sqlite', 'kiosk.sqlite-wal', 'kiosk.sqlite-shm', 'training/training-sandbox.sqlite', 'training/training-relay.sqlite', 'training/training-identity.json']) {
      assert.ok(files.includes(name.split('/').join(sep)), `${name} is there`);
    }
    for (const file of files) assert.equal(modeOf(join(dir, file)), 0o600, file);
  });

  test('issue 12: the training client secret, webhook secret, tokens and kiosk key are in no file outside training/', () => {
    const onDisk = trainingSecretsOnDisk(dir);
    assert.ok(onDisk.clientSecrets.length > 0 && onDisk.webhookSecrets.length > 0 && onDisk.tokens.length > 0);
    const held = running.kiosk.secrets();
    // What the launch holds includes what the sandbox keeps (so the list the scan uses is the real one).
    for (const secret of [...onDisk.clientSecrets, ...onDisk.webhookSecrets]) assert.ok(held.includes(secret));
    const secrets = [...new Set([...held, ...onDisk.clientSecrets, ...onDisk.webhookSecrets, ...onDisk.tokens, running.shell.secret])];
    const text = (file: string) => readFileSync(join(dir, file)).toString('latin1');
    const { files } = tree(dir);
    const inside = files.filter((f) => f.startsWith(`training${sep}`));
    const outside = files.filter((f) => !f.startsWith(`training${sep}`));
    assert.ok(outside.includes('kiosk.sqlite') && inside.length >= 3);
    // The scan can see a secret in a SQLite file: the sandbox's own file holds the client secret.
    assert.ok(inside.some((f) => text(f).includes(onDisk.clientSecrets[0] as string)), 'the scan finds what is there');
    for (const file of outside) {
      const content = text(file);
      for (const secret of secrets) assert.ok(!content.includes(secret), `a secret is in ${file}`);
    }
    for (const secret of secrets) assert.ok(!stderr.includes(secret), 'a secret is in the log on standard error');
  });

  test('issue 12: the logger redacts every secret of the launch: the kiosk\'s and the web shell\'s launch secret', () => {
    const onDisk = trainingSecretsOnDisk(dir);
    const held = running.kiosk.secrets();
    assert.equal(onDisk.tokens.filter((t) => held.includes(t)).length, 2, 'the access and refresh tokens the sandbox issued to the kiosk');
    const secrets = [...new Set([...held, running.shell.secret])];
    assert.ok(secrets.length >= 7, `tokens, client secret, kiosk key, webhook secret, PIN pepper, launch secret (${secrets.length})`);
    const mark = stderr.length;
    for (const secret of secrets) running.logger.warn(`value ${secret} end`, { nested: [{ text: `(${secret})` }] });
    const lines = stderr.slice(mark).trim().split('\n');
    assert.equal(lines.length, secrets.length);
    for (const secret of secrets) assert.ok(!lines.join('\n').includes(secret), 'redacted');
    for (const line of lines) assert.deepEqual(JSON.parse(line).nested, [{ text: `(${REDACTED})` }]);
  });

  test('issue 12: a request line or header the server cannot read gets 400 and the connection closes; the server keeps serving', async () => {
    const port = Number(new URL(running.shell.origin).port);
    const host = `127.0.0.1:${port}`;
    const raw = (payload: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(payload));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
        socket.setTimeout(5_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(payload)}`)));
      });
    for (const payload of [
      'GARBAGE\r\n\r\n',
      `G@T / HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: ${host}\r\nNo colon here\r\n\r\n`,
      `GET / HTTP/1.1\r\nHost: ${host}\r\nContent-Length: abc\r\n\r\n`,
      `GET http://[::1 HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      `GET //[ HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      `GET http://127.0.0.1:99999/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    ]) {
      const answer = await raw(payload);
      assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/, `${JSON.stringify(payload)} → ${JSON.stringify(answer.slice(0, 60))}`);
      assert.match(answer, /\r\nconnection: close\r\n/i);
      // (chunked or not: the body is the usual JSON error envelope)
      assert.match(answer.slice(answer.indexOf('\r\n\r\n') + 4), /\{"ok":false,"error":\{"code":"[a-z_]+"/);
    }
    const fine = await fetch(`${running.shell.origin}/`);
    assert.equal(fine.status, 200);
    await fine.arrayBuffer();
  });
});

test('issue 12: web.ts refuses a 0-byte kiosk.sqlite: one line naming the file and what to do, exit 1, the file untouched', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-damaged-'));
  try {
    const file = join(dir, 'kiosk.sqlite');
    writeFileSync(file, '');
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'launch', 'web.ts'), '--data-dir', dir, '--no-open', '--training'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '', 'no URL: the kiosk did not start');
    const lines = stderr.trimEnd().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.ok(lines[0]?.startsWith(`web: the kiosk could not start: The kiosk database ${file} is damaged (it is empty, 0 bytes`), lines[0]);
    assert.ok(lines[0]?.includes(`mv "${file}" "${file}.damaged"`));
    assert.equal(statSync(file).size, 0, 'not replaced by an empty database');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
