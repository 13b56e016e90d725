import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { PRIVATE_FILE_MODE } from '../host/private-files.ts';

// issue 18 "Support bundle": one .tar.gz made with `tar` (npm's own archive library, kept by the npm team). The files
// are written to a private temporary folder (mkdtemp makes it 0700, the files are 0600: they hold the store's
// settings), archived from there and removed, whatever happens.

export interface ArchiveFile {
  /** A plain name (no folders), e.g. "versions.json". */
  name: string;
  text: string;
}

export interface ManifestEntry {
  name: string;
  bytes: number;
  sha256: string;
}

/** The archive's bytes (gzip) holding `files` and a manifest.json listing them (name, size, SHA-256) with `about`. */
export async function buildArchive(files: readonly ArchiveFile[], about: Record<string, unknown>): Promise<Buffer> {
  const entries: ManifestEntry[] = files.map((file) => {
    if (!/^[A-Za-z0-9._-]+$/.test(file.name) || file.name === 'manifest.json') throw new RangeError(`not a bundle file name: ${file.name}`);
    const bytes = Buffer.from(file.text, 'utf8');
    return { name: file.name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
  const manifest: ArchiveFile = { name: 'manifest.json', text: `${JSON.stringify({ ...about, files: entries }, null, 2)}\n` };
  const dir = await mkdtemp(join(tmpdir(), 'kiosk-diagnostics-'));
  try {
    const all = [manifest, ...files];
    for (const file of all) await writeFile(join(dir, file.name), file.text, { mode: PRIVATE_FILE_MODE });
    const archive = join(dir, 'bundle.tar.gz');
    // portable: no user or group names of the counter PC in the archive.
    await create({ gzip: true, file: archive, cwd: dir, portable: true }, all.map((file) => file.name));
    return await readFile(archive);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
