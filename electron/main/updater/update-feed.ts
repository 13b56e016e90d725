import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readCappedBody } from '../../../node-common/capped-body.ts';

/**
 * The generic update feed electron-builder publishes (issue 18): `latest-linux.yml` (AppImage), `latest.yml` (NSIS),
 * `latest-mac.yml` beside the installers. The kiosk reads it itself to know the version and the file's sha512, and
 * checks the downloaded file against that sha512 once more right before installing: electron-updater checks it while
 * downloading, but a file damaged on disk afterwards (a power cut at the counter) must not be installed either.
 */
export interface FeedRelease {
  version: string;
  /** The installer's file name, relative to the feed URL. */
  path: string;
  /** Base64 sha512 of the file, as electron-builder writes it. */
  sha512: string;
  releaseDate: string | null;
  /** issue 27 item 3: our Ed25519 signature (update-signature.ts), `kioskSignature:`; null when the feed has none. */
  signature: string | null;
  /** The installer's size in bytes (`size:` of its `files:` entry), when the feed gives it. */
  size: number | null;
}

/** issue 27 item 3: a channel file is a few hundred bytes; a feed file larger than this is refused, not read. */
export const MAX_FEED_BYTES = 64 * 1024;
/** issue 27 item 3: at most this many redirects, each to https on the feed's own origin. */
export const MAX_FEED_REDIRECTS = 5;
/** issue 27 item 3: an installer is about 100 to 150 MB; a feed naming a larger one is refused before any download. */
export const MAX_INSTALLER_BYTES = 512 * 1024 * 1024;

export function channelFile(platform: NodeJS.Platform): string {
  if (platform === 'win32') return 'latest.yml';
  if (platform === 'darwin') return 'latest-mac.yml';
  return 'latest-linux.yml';
}

/**
 * The top-level fields of a latest-*.yml: `version`, `path`, `sha512`, `releaseDate` (electron-builder writes them as
 * plain `key: value` lines; the `files:` list repeats them for each file). A full YAML parser is not needed for these
 * four scalars. Throws when one of the first three is missing.
 */
export function parseChannelFile(text: string): FeedRelease {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const match = /^([A-Za-z][A-Za-z0-9]*):\s*(.*)$/.exec(line);
    if (!match?.[2]) continue;
    fields.set(match[1]!, match[2].replace(/^(['"])(.*)\1$/, '$2'));
  }
  const version = fields.get('version');
  const path = fields.get('path');
  const sha512 = fields.get('sha512');
  if (!version || !path || !sha512) throw new Error('the update feed has no version, path and sha512');
  const size = installerSize(text, path);
  return { version, path, sha512, releaseDate: fields.get('releaseDate') ?? null, signature: fields.get('kioskSignature') ?? null, size };
}

/** The `size:` of the installer's entry in `files:` ("  - url: <path>" then "    size: N"), or null. */
function installerSize(text: string, path: string): number | null {
  let inEntry = false;
  for (const line of text.split(/\r?\n/)) {
    const url = /^\s*- url:\s*(.*?)\s*$/.exec(line);
    if (url) inEntry = url[1]?.replace(/^(['"])(.*)\1$/, '$2') === path;
    else if (!/^\s/.test(line)) inEntry = false;
    else if (inEntry) {
      const size = /^\s+size:\s*(\d{1,15})\s*$/.exec(line)?.[1];
      if (size !== undefined) return Number(size);
    }
  }
  return null;
}

/**
 * The release the feed offers now. Throws on a network error, a non-2xx answer, a file without the fields, and
 * (issue 27 item 3) a redirect that is not to https on the feed's own origin or is the sixth in a row, a feed file
 * over MAX_FEED_BYTES (read no further than that), or an installer over MAX_INSTALLER_BYTES.
 */
export async function fetchRelease(feedUrl: string, platform: NodeJS.Platform, fetchFn: typeof fetch = fetch): Promise<FeedRelease> {
  const first = new URL(channelFile(platform), feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`);
  let url = first;
  const signal = AbortSignal.timeout(30_000);
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetchFn(url, { signal, redirect: 'manual', headers: { 'cache-control': 'no-cache' } });
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel().catch(() => undefined);
      const next = new URL(response.headers.get('location') ?? '', url);
      if (next.protocol !== 'https:' || next.origin !== first.origin) throw new Error(`the update feed redirected to ${next.origin}: only https on ${first.origin} is followed`);
      if (redirects + 1 > MAX_FEED_REDIRECTS) throw new Error(`the update feed redirected more than ${MAX_FEED_REDIRECTS} times`);
      url = next;
      continue;
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`the update feed answered ${response.status} for ${url.pathname}`);
    }
    const release = parseChannelFile(await readBounded(response, MAX_FEED_BYTES));
    if (release.size !== null && release.size > MAX_INSTALLER_BYTES) throw new Error(`the update feed names an installer of ${release.size} bytes, more than ${MAX_INSTALLER_BYTES}`);
    return release;
  }
}

/** The body as text, or a throw as soon as it passes `max` bytes (a declared length over it is refused unread). */
async function readBounded(response: Response, max: number): Promise<string> {
  const body = await readCappedBody(response, max, () => new Error(`the update feed file is larger than ${max} bytes`));
  return body.toString('utf8');
}

/** The file's sha512, base64 (electron-builder's encoding). */
export async function sha512OfFile(path: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}
