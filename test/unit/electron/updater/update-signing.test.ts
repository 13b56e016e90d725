// issue 27 item 3 "Updates only from us": our Ed25519 signature over each release (update-signature.ts), made by
// `npm run sign-update` (build/sign-update.ts) and checked with the installation's pinned key before any download; and
// the feed's fetch bounded (redirects only to https on the feed's origin, at most 64 KiB read). Over REAL local HTTP
// feeds on 127.0.0.1 with a key pair made here; electron-updater's autoUpdater is MOCKED (auto-updater-mock.ts: it
// imports `electron`). What cannot be tested here (Authenticode, notarization, a real NSIS/Squirrel install): README
// "Update signing".
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '../../../../node-common/listen.ts';
import { UpdateManager } from '../../../../electron/main/updater/updater.ts';
import { MAX_FEED_BYTES, fetchRelease, parseChannelFile } from '../../../../electron/main/updater/update-feed.ts';
import { readPinnedKey, verifyRelease } from '../../../../electron/main/updater/update-signature.ts';
import { newSigningKey } from '../../../../build/sign-update.ts';
import { createAutoUpdaterMock, startUpdateFeed } from '../../../support/fakes/auto-updater-mock.ts';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const idle = { chargeWaiting: false, refundSending: false, outboxWaiting: 0 };

describe('the updater refuses what our key did not sign', () => {
  let feed: Awaited<ReturnType<typeof startUpdateFeed>>;
  let updater: ReturnType<typeof createAutoUpdaterMock>;
  const warnings: Array<Record<string, unknown> | undefined> = [];
  const manager = (pinnedKey: () => Promise<KeyObject | null>) =>
    new UpdateManager({
      clock: { now: () => Date.parse('2026-11-25T15:00:00Z') },
      logger: { info: () => undefined, warn: (_m, fields) => void warnings.push(fields), error: () => undefined },
      version: '1.0.0',
      platform: 'linux',
      settings: async () => ({ updateFeedUrl: feed.url, maintenanceWindow: '03:00-05:00' }),
      activity: async () => idle,
      autoUpdater: async () => updater,
      pinnedKey,
      beforeInstall: async () => undefined,
      minuteOfDay: () => 4 * 60,
    });

  beforeEach(async () => {
    feed = await startUpdateFeed({ version: '1.1.0' });
    updater = createAutoUpdaterMock();
    warnings.length = 0;
  });
  afterEach(() => feed.close());

  test('a release signed by the pinned key downloads and installs (in the window, counter idle)', async () => {
    const m = manager(async () => feed.publicKey);
    // In the window with the counter idle, one step downloads, checks and installs.
    assert.equal((await m.step()).phase, 'installing');
    assert.equal(updater.downloads, 1);
    assert.equal(updater.installs.length, 1);
  });

  for (const [signing, what] of [
    ['unsigned', 'an unsigned release'],
    ['other_key', 'a release signed by another key'],
    ['tampered', "a tampered installer with its own correct sha512 and size in the feed (the signature is the original's)"],
  ] as const) {
    test(`${what} is refused before any download, reported, never installed`, async () => {
      feed.feed.signing = signing;
      const state = await manager(async () => feed.publicKey).step();
      assert.equal(state.phase, 'failed', JSON.stringify(state));
      assert.equal(state.phase === 'failed' && state.because, 'signature');
      assert.match(state.phase === 'failed' ? state.message : '', signing === 'unsigned' ? /not signed$/ : /not signed by the pinned key/);
      assert.equal(updater.downloads, 0, 'nothing was downloaded');
      assert.equal(updater.installs.length, 0);
      assert.ok(!feed.feed.requests.includes(`/${feed.feed.fileName}`), 'the installer was never asked for');
      assert.ok(warnings.some((w) => w?.because === 'signature'), 'logged');
    });
  }

  test('with no pinned key (none shipped) every update is refused, signed or not', async () => {
    const noKeyDir = mkdtempSync(join(tmpdir(), 'no-key-'));
    try {
      const state = await manager(() => readPinnedKey(join(noKeyDir, 'update-public-key.pem'))).step();
      assert.equal(state.phase === 'failed' && state.because, 'signature');
      assert.match(state.phase === 'failed' ? state.message : '', /no pinned update key/);
      assert.equal(updater.downloads, 0);
    } finally {
      rmSync(noKeyDir, { recursive: true, force: true });
    }
  });
});

describe('npm run sign-update', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sign-update-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const release = (installer: Buffer) => {
    const name = 'QR Counter Kiosk-2.0.0-x86_64.AppImage';
    writeFileSync(join(dir, name), installer);
    const sha512 = createHash('sha512').update(installer).digest('base64');
    writeFileSync(join(dir, 'latest-linux.yml'), ['version: 2.0.0', 'files:', `  - url: ${name}`, `    sha512: ${sha512}`, `    size: ${installer.length}`, `path: ${name}`, `sha512: ${sha512}`, "releaseDate: '2026-12-01T10:00:00.000Z'", ''].join('\n'));
    return name;
  };
  const signUpdate = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'build', 'sign-update.ts'), ...args], { cwd: root, encoding: 'utf8' });

  test('signs every latest*.yml with the private key; the pinned public key verifies it; the private key file is 0600', async () => {
    const keys = newSigningKey(dir);
    assert.equal(statSync(keys.privateKey).mode & 0o777, 0o600);
    release(Buffer.from('an installer'));
    const signed = signUpdate('--key', keys.privateKey, dir);
    assert.equal(signed.status, 0, signed.stderr);
    assert.match(signed.stdout, /signed latest-linux\.yml/);
    const parsed = parseChannelFile(readFileSync(join(dir, 'latest-linux.yml'), 'utf8'));
    assert.equal(parsed.size, 'an installer'.length);
    const key = await readPinnedKey(keys.publicKey);
    assert.ok(key);
    assert.equal(verifyRelease(parsed, parsed.signature, key), true);
    assert.equal(verifyRelease({ ...parsed, version: '2.0.1' }, parsed.signature, key), false, 'the signature does not move to another version');
    // Signing again replaces the line rather than adding a second one.
    assert.equal(signUpdate('--key', keys.privateKey, dir).status, 0);
    assert.equal(readFileSync(join(dir, 'latest-linux.yml'), 'utf8').match(/^kioskSignature:/gm)?.length, 1);
    assert.ok(!signed.stdout.includes(readFileSync(keys.privateKey, 'utf8').split('\n')[1] ?? 'never'), 'the private key is not printed');
  });

  test('refuses to sign an installer whose bytes are not the ones the yml names, and a missing key', () => {
    const keys = newSigningKey(dir);
    const name = release(Buffer.from('an installer'));
    writeFileSync(join(dir, name), 'another installer');
    const refused = signUpdate('--key', keys.privateKey, dir);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /does not have the sha512/);
    assert.doesNotMatch(readFileSync(join(dir, 'latest-linux.yml'), 'utf8'), /kioskSignature/);
    const usage = signUpdate(dir);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--key/);
  });
});

describe('the feed fetch is bounded', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const serve = async (handler: Parameters<typeof createServer>[1]) => {
    const server = createServer(handler);
    servers.push(server);
    return listen(server, 0, '127.0.0.1', 'a test feed');
  };
  const yml = 'version: 1.1.0\npath: k.AppImage\nsha512: abc\n';

  test('a redirect to another origin, or to plain http on the same one, is not followed', async () => {
    let elsewhereAsked = 0;
    const elsewhere = await serve((_request, response) => {
      elsewhereAsked += 1;
      response.end(yml);
    });
    const feed = await serve((request, response) => {
      response.writeHead(302, { location: request.url === '/a/latest-linux.yml' ? `${elsewhere}/latest-linux.yml` : '/a/latest-linux.yml' });
      response.end();
    });
    await assert.rejects(fetchRelease(`${feed}/a`, 'linux'), /redirected to http:\/\/127\.0\.0\.1:\d+: only https on/);
    assert.equal(elsewhereAsked, 0, 'the other origin was never asked');
    await assert.rejects(fetchRelease(`${feed}/b`, 'linux'), /only https on/, 'same origin, but plain http');
  });

  test('a feed file over 64 KiB is refused: a declared one unread, a streamed one after at most a chunk past the limit', async () => {
    let written = 0;
    const huge = await serve((request, response) => {
      if (request.url?.startsWith('/declared')) {
        response.writeHead(200, { 'content-length': String(300 * 1024 * 1024) });
        response.write('version: 1.1.0\n');
        return;
      }
      // 300 MB announced by nothing: streamed until the client hangs up.
      const chunk = Buffer.alloc(16 * 1024, 'x');
      let open = true;
      request.socket.on('close', () => (open = false));
      const pump = () => {
        while (open && written < 300 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
    await assert.rejects(fetchRelease(`${huge}/declared`, 'linux'), new RegExp(`larger than ${MAX_FEED_BYTES} bytes`));
    await assert.rejects(fetchRelease(`${huge}/streamed`, 'linux'), new RegExp(`larger than ${MAX_FEED_BYTES} bytes`));
    assert.ok(written < 32 * 1024 * 1024, `the feed could write ${written} bytes before the kiosk hung up`);
  });

  test('a feed naming an installer over 512 MiB is refused before any download', async () => {
    const feed = await serve((_request, response) => response.end(`version: 1.1.0\nfiles:\n  - url: k.AppImage\n    sha512: abc\n    size: ${600 * 1024 * 1024}\npath: k.AppImage\nsha512: abc\n`));
    await assert.rejects(fetchRelease(feed, 'linux'), /names an installer of \d+ bytes/);
  });
});
