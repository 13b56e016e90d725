// issue 27 item 3 "Updates only from us": `npm run sign-update -- --key <private.pem> [dir]` signs every release in an
// electron-builder output folder (default dist/electron) with our Ed25519 key: for each latest*.yml it checks that
// the installer it names is in the folder with the sha512 (and size) the yml says, then writes the signature as the
// yml's `kioskSignature:` line (electron/main/updater/update-signature.ts says what is signed). Upload the folder
// afterwards. `npm run sign-update -- --new-key <dir>` makes a key pair: update-signing-key.pem (private, mode 0600:
// keep it off the build machine's shared disks) and update-public-key.pem, which goes to build/update-key/ before
// `npm run dist` so installations pin it. README "Update signing".
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseChannelFile, sha512OfFile } from '../electron/main/updater/update-feed.ts';
import { signRelease } from '../electron/main/updater/update-signature.ts';

export const SIGN_UPDATE_USAGE = 'Usage: npm run sign-update -- --key <private.pem> [dir]   |   npm run sign-update -- --new-key <dir>\n';

/** Writes a new key pair into `dir`; returns the two paths. Refuses to overwrite an existing key. */
export function newSigningKey(dir: string): { privateKey: string; publicKey: string } {
  const pair = generateKeyPairSync('ed25519');
  const privateKey = join(dir, 'update-signing-key.pem');
  const publicKey = join(dir, 'update-public-key.pem');
  writeFileSync(privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
  writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }), { flag: 'wx' });
  return { privateKey, publicKey };
}

/** Signs every latest*.yml in `dir`; returns the ymls signed. Throws a sentence when an installer does not match. */
export async function signUpdates(dir: string, privateKeyPem: string): Promise<string[]> {
  const channels = readdirSync(dir).filter((name) => /^latest(-[a-z0-9]+)?\.yml$/.test(name));
  if (channels.length === 0) throw new Error(`no latest*.yml in ${dir}: run npm run dist first`);
  for (const name of channels) {
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    const release = parseChannelFile(text);
    const installer = join(dir, release.path);
    const actual = await sha512OfFile(installer).catch(() => null);
    if (actual === null) throw new Error(`${name} names ${release.path}, which is not in ${dir}`);
    if (actual !== release.sha512) throw new Error(`${release.path} does not have the sha512 ${name} says: not signed`);
    if (release.size !== null && statSync(installer).size !== release.size) throw new Error(`${release.path} does not have the size ${name} says: not signed`);
    const signature = signRelease(release, privateKeyPem);
    const kept = text.split(/\r?\n/).filter((line) => !line.startsWith('kioskSignature:'));
    while (kept.at(-1) === '') kept.pop();
    writeFileSync(file, `${[...kept, `kioskSignature: ${signature}`].join('\n')}\n`);
  }
  return channels;
}

async function main(args: string[]): Promise<number> {
  const flag = (name: string) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
  };
  const newKeyDir = flag('--new-key');
  if (newKeyDir) {
    const written = newSigningKey(newKeyDir);
    process.stdout.write(`sign-update: wrote ${written.privateKey} (private: keep it safe) and ${written.publicKey} (copy it to build/update-key/)\n`);
    return 0;
  }
  const keyFile = flag('--key');
  if (!keyFile) {
    process.stderr.write(SIGN_UPDATE_USAGE);
    return 2;
  }
  const dir = args.filter((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--key')[0] ?? join(import.meta.dirname, '..', 'dist', 'electron');
  try {
    const signed = await signUpdates(dir, readFileSync(keyFile, 'utf8'));
    process.stdout.write(`sign-update: signed ${signed.join(', ')}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`sign-update: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) process.exitCode = await main(process.argv.slice(2));
