import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isLoopbackHostname } from '../shared/loopback.ts';

/** How the kiosk is launched: where its data lives, against which platform, and how it is shown. */
export interface KioskLaunchConfig {
  dataDir: string;
  /** training: the embedded sandbox and relay, no real money; live: the platform at platformUrl. */
  mode: 'training' | 'live';
  /** The platform's base URL in live mode; null in training (the embedded sandbox picks its own). */
  platformUrl: string | null;
  /** The web shell's port; 0 picks a free one. */
  port: number;
  /** Open the kiosk window (Chromium app mode) once it runs. */
  open: boolean;
}

export type KioskConfigResult = { ok: true; config: KioskLaunchConfig } | { ok: false; message: string };

/** Reads a file's text, or null when it does not exist; throws for any other failure. */
export type ReadTextFile = (path: string) => string | null;

export const CONFIG_FILE = 'config.json';
export const DEFAULT_DATA_DIR_NAME = '.qr-counter-kiosk';
export const KIOSK_USAGE =
  'Usage: [--port N] [--no-open] [--data-dir DIR] [--platform-url URL | --training]\n' +
  '  --platform-url URL  live mode against the payment platform at URL (also KIOSK_PLATFORM_URL, or\n' +
  '                      {"platformUrl": "..."} in DIR/config.json); without one the kiosk runs in training mode\n' +
  '  --training          training mode even when a platform URL is configured\n' +
  '  --data-dir DIR      where the kiosk keeps its data (also KIOSK_DATA_DIR; default ~/.qr-counter-kiosk)\n' +
  '  --port N            the port of the kiosk page on 127.0.0.1 (default: a free one)\n' +
  '  --no-open           do not open the kiosk window\n';

const FLAGS_WITH_VALUE = new Set(['--port', '--data-dir', '--platform-url']);
const SWITCHES = new Set(['--no-open', '--training']);

/**
 * `<dataDir>/config.json`: what a store's installer leaves beside the data, `{"platformUrl": "..." | null}`; unknown
 * fields are refused. Checked by hand, not with zod: this runs before the web shell listens, and zod with its schemas
 * is about 25 ms of a cold start's module loading (issue 14 "cold start"), which now happens after the address is shown.
 * The first problem is said, the field's type before unknown fields, as zod's strict object did.
 */
function configFileProblem(json: unknown): string | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'must hold a JSON object like {"platformUrl": "https://..."}';
  const { platformUrl } = json as Record<string, unknown>;
  if (platformUrl !== undefined && platformUrl !== null && typeof platformUrl !== 'string') return ': platformUrl must be a URL (text) or null';
  const unknown = Object.keys(json).filter((key) => key !== 'platformUrl');
  if (unknown.length) return `: unknown field ${unknown.map((k) => JSON.stringify(k)).join(', ')}; the file may hold only "platformUrl"`;
  return null;
}

/**
 * The launch configuration from, highest first: command-line flags (`--port N`, `--no-open`, `--data-dir DIR`,
 * `--platform-url URL`, `--training`; `--flag=value` works too), the environment (KIOSK_DATA_DIR,
 * KIOSK_PLATFORM_URL; empty counts as unset), then `<dataDir>/config.json` (`{"platformUrl": "..."}`). A platform URL
 * means live mode, none (or `--training`) training mode. The config file is checked whenever it exists, even when a
 * flag overrides it, so a broken file is found the day it is written.
 * Failure: `{ok: false, message}` with one line naming the flag, variable, or file and field at fault.
 */
export function parseKioskConfig(argv: string[], env: NodeJS.ProcessEnv, readFile: ReadTextFile = readTextFile): KioskConfigResult {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (SWITCHES.has(name)) {
      if (eq !== -1) return fail(`${name} takes no value`);
      if (flags.has(name)) return fail(`${name} is given twice`);
      flags.set(name, true);
    } else if (FLAGS_WITH_VALUE.has(name)) {
      let value: string | undefined;
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        value = argv[i + 1];
        if (value === undefined || value.startsWith('--')) return fail(`${name} needs a value`);
        i += 1;
      }
      if (value === '') return fail(`${name} needs a value`);
      if (flags.has(name)) return fail(`${name} is given twice`);
      flags.set(name, value);
    } else {
      return fail(`unknown argument ${JSON.stringify(arg.slice(0, 40))}`);
    }
  }
  const flag = (name: string): string | undefined => {
    const value = flags.get(name);
    return typeof value === 'string' ? value : undefined;
  };

  let port = 0;
  const portText = flag('--port');
  if (portText !== undefined) {
    if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535) return fail(`--port must be a number from 0 to 65535, not ${JSON.stringify(portText.slice(0, 20))}`);
    port = Number(portText);
  }

  const dataDirText = flag('--data-dir') ?? nonEmpty(env.KIOSK_DATA_DIR);
  const dataDir = resolve(dataDirText ?? join(homedir(), DEFAULT_DATA_DIR_NAME));

  const file = join(dataDir, CONFIG_FILE);
  let fromFile: string | null = null;
  let text: string | null;
  try {
    text = readFile(file);
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (text !== null) {
    let json: unknown;
    try {
      // Notepad writes a byte order mark; JSON.parse does not take one.
      json = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      return fail(`${file} is not valid JSON: ${(error as Error).message}`);
    }
    const problem = configFileProblem(json);
    if (problem !== null) return fail(`${file}${problem.startsWith(':') ? '' : ' '}${problem}`);
    const { platformUrl: fileUrl } = json as { platformUrl?: string | null };
    if (fileUrl) {
      const checked = checkPlatformUrl(fileUrl);
      if (!checked.ok) return fail(`${file}: platformUrl ${checked.reason}`);
      fromFile = checked.url;
    }
  }

  const training = flags.has('--training');
  const cliUrl = flag('--platform-url');
  if (training && cliUrl !== undefined) return fail('--training and --platform-url cannot go together: choose one mode');
  let platformUrl: string | null = null;
  if (!training) {
    if (cliUrl !== undefined) {
      const checked = checkPlatformUrl(cliUrl);
      if (!checked.ok) return fail(`--platform-url ${checked.reason}`);
      platformUrl = checked.url;
    } else if (nonEmpty(env.KIOSK_PLATFORM_URL) !== undefined) {
      const checked = checkPlatformUrl(env.KIOSK_PLATFORM_URL as string);
      if (!checked.ok) return fail(`KIOSK_PLATFORM_URL ${checked.reason}`);
      platformUrl = checked.url;
    } else {
      platformUrl = fromFile;
    }
  }
  return {
    ok: true,
    config: { dataDir, mode: platformUrl ? 'live' : 'training', platformUrl, port, open: !flags.has('--no-open') },
  };
}

/**
 * A platform base URL: http or https, no credentials, query or fragment. Plain http only to this machine (a sandbox):
 * tokens and client secrets must not cross a network in clear. Returned without a trailing slash.
 */
export function checkPlatformUrl(text: string): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: `${JSON.stringify(text.slice(0, 80))} is not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `must start with https:// (not ${url.protocol}//)` };
  if (url.username || url.password) return { ok: false, reason: 'must not carry a user name or password' };
  if (url.search || url.hash) return { ok: false, reason: 'must not carry a query or a fragment' };
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) return { ok: false, reason: 'must use https:// (plain http is allowed only for 127.0.0.1 and localhost)' };
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

function fail(message: string): KioskConfigResult {
  return { ok: false, message };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function readTextFile(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
