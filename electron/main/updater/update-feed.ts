import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

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
}

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
  return { version, path, sha512, releaseDate: fields.get('releaseDate') ?? null };
}

/** The release the feed offers now. Throws on a network error, a non-2xx answer or a file without the fields. */
export async function fetchRelease(feedUrl: string, platform: NodeJS.Platform, fetchFn: typeof fetch = fetch): Promise<FeedRelease> {
  const url = new URL(channelFile(platform), feedUrl.endsWith('/') ? feedUrl : `${feedUrl}/`);
  const response = await fetchFn(url, { signal: AbortSignal.timeout(30_000), headers: { 'cache-control': 'no-cache' } });
  if (!response.ok) throw new Error(`the update feed answered ${response.status} for ${url.pathname}`);
  return parseChannelFile(await response.text());
}

/** The file's sha512, base64 (electron-builder's encoding). */
export async function sha512OfFile(path: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('base64');
}
