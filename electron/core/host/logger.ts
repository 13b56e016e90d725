import type { Clock, Logger } from '../ports.ts';

// Secrets never reach the logs (issue 4). Callers are expected not to log them; this is the net under that: any value
// equal to a registered secret, anything shaped like a platform token (platform-facts "Identifiers and formats":
// access tokens TEST-…/APP_USR-…, refresh tokens and authorization codes TG-…), credentials in Authorization headers
// and in URL queries, and fields whose name says they hold a secret, wherever they appear.

export const REDACTED = '[redacted]';

export interface LoggerOptions {
  /** Receives one JSON line (no newline). Default: standard output. */
  write?: (line: string) => void;
  /**
   * The secrets in use now (tokens, client secret, relay keys, the PIN pepper, the web shell's launch secret: issue 12,
   * KioskCore.secrets()); asked on every line, so a refreshed token is covered at once.
   */
  secrets?: () => readonly string[];
  clock?: Clock;
  /** Writes `debug` lines too (level "debug"); off by default, so they never crowd a normal start (issue 15). */
  debug?: boolean;
}

// Access token TEST-<client_id>-<MMddHH>-<32 hex>-<user_id> (APP_USR- when live), refresh token TG-<hex>-<user_id>.
// Public keys (TEST-<uuid>) match too; hiding one costs nothing. The length floor keeps words like "TEST-1" readable.
const TOKEN_SHAPE = /\b(?:TEST|APP_USR|TG)-[A-Za-z0-9][A-Za-z0-9_-]{15,}/g;
const BEARER = /\b(Bearer)(\s+|%20|\+)[A-Za-z0-9._~+/=-]+/gi;
// Basic credentials are base64; the length floor spares prose such as "basic plan".
const BASIC = /\b(Basic)(\s+)[A-Za-z0-9+/]{8,}={0,2}/g;
const AUTH_HEADER = /\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?)[^"',;\r\n}]+/gi;
// `k` is the web shell's per-launch secret in its URL (electron/web-shell/server.ts).
const SECRET_QUERY = /\b(access_token|refresh_token|client_secret|code_verifier|password|token|k)=[^&\s"'#]+/gi;
// Field names compared lowercased with separators removed: accessToken, access_token and Access-Token are one name.
const SECRET_KEYS = new Set([
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'accesstoken',
  'refreshtoken',
  'clientsecret',
  'secret',
  'password',
  'token',
  'apikey',
  'xapikey',
  'codeverifier',
  // The relay's kiosk key (relay README "Kiosk keys"), under the names the settings and the launch give it.
  'relaykey',
  'kioskkey',
  'pin',
  'currentpin',
  'newpin',
  // issue 12: the PIN hash's key, the platform's webhook secret (training's embedded relay), the web shell's launch secret.
  'pepper',
  'pinpepper',
  'webhooksecret',
  'launchsecret',
]);
// Below this length a secret is only hidden where a whole value equals it: hiding every occurrence of a short string
// inside messages would shred them.
const MIN_SUBSTRING_SECRET = 6;
const MAX_DEPTH = 8;
const RESERVED = new Set(['time', 'level', 'msg']);

/**
 * A Logger that writes one JSON object per line: `{"time":…,"level":…,"msg":…,…fields}`. Messages and every string
 * in the fields, however deeply nested, are redacted first (see the top of this file). A field named like a reserved
 * key (time, level, msg) is written with a leading underscore. Never throws: a line that cannot be written is lost.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => void process.stdout.write(`${line}\n`));
  const secretsOf = options.secrets ?? (() => []);
  const now = () => (options.clock ?? Date).now();

  const log = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => {
    try {
      const redactor = new Redactor(secretsOf().filter((s) => typeof s === 'string' && s.length > 0));
      const line: Record<string, unknown> = { time: new Date(now()).toISOString(), level, msg: redactor.text(String(message)) };
      if (fields !== undefined) {
        for (const [key, value] of Object.entries(fields)) {
          line[RESERVED.has(key) ? `_${key}` : key] = redactor.field(key, value, 1, new WeakSet());
        }
      }
      write(JSON.stringify(line));
    } catch {
      // Logging must never take the kiosk down.
    }
  };
  return {
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
    debug: (message, fields) => {
      if (options.debug) log('debug', message, fields);
    },
  };
}

/**
 * issue 18 "Support bundle": the logger's redaction applied again to text already written (a log line, a file of the
 * bundle), as a second net: a JSON log line field by field (names that say "secret" hide their value), any other text
 * as a message is. `secrets`: the running kiosk's (KioskCore.secrets()).
 */
export function redactAgain(text: string, secrets: readonly string[], options: { jsonLine?: boolean } = {}): string {
  const redactor = new Redactor(secrets.filter((s) => typeof s === 'string' && s.length > 0));
  if (options.jsonLine) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) return JSON.stringify(redactor.value(parsed, 1, new WeakSet()));
    } catch {
      // Not JSON (a line cut short when the file rolled over): redacted as text below.
    }
  }
  return redactor.text(text);
}

class Redactor {
  readonly #exact: Set<string>;
  // Longest first, so a secret that contains another is hidden whole.
  readonly #substrings: string[];

  constructor(secrets: readonly string[]) {
    this.#exact = new Set(secrets);
    this.#substrings = [...new Set(secrets.filter((s) => s.length >= MIN_SUBSTRING_SECRET))].sort((a, b) => b.length - a.length);
  }

  text(text: string): string {
    if (this.#exact.has(text)) return REDACTED;
    let out = text;
    for (const secret of this.#substrings) out = out.split(secret).join(REDACTED);
    return out
      .replace(AUTH_HEADER, `$1${REDACTED}`)
      .replace(BEARER, `$1$2${REDACTED}`)
      .replace(BASIC, `$1$2${REDACTED}`)
      .replace(SECRET_QUERY, `$1=${REDACTED}`)
      .replace(TOKEN_SHAPE, REDACTED);
  }

  field(key: string, value: unknown, depth: number, seen: WeakSet<object>): unknown {
    if (SECRET_KEYS.has(key.toLowerCase().replace(/[^a-z]/g, '')) && value !== null && value !== undefined && value !== '') {
      return REDACTED;
    }
    return this.value(value, depth, seen);
  }

  value(value: unknown, depth: number, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'function' || typeof value === 'symbol') return undefined;
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[circular]';
    if (depth > MAX_DEPTH) return '[too deep]';
    seen.add(value);
    try {
      if (value instanceof Error) return this.error(value, depth, seen);
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
      if (value instanceof URL) return this.text(value.href);
      if (value instanceof Map) return this.value(Object.fromEntries(value), depth, seen);
      if (value instanceof Set || Array.isArray(value)) return [...value].map((item) => this.value(item, depth + 1, seen));
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return `[${value.byteLength} bytes]`;
      if (value instanceof Headers) return this.value(Object.fromEntries(value.entries()), depth, seen);
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = this.field(k, v, depth + 1, seen);
      return out;
    } finally {
      seen.delete(value);
    }
  }

  error(error: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
    const out: Record<string, unknown> = { name: error.name, message: this.text(error.message) };
    for (const [k, v] of Object.entries(error)) out[k] = this.field(k, v, depth + 1, seen);
    if (error.stack !== undefined) out.stack = this.text(error.stack);
    if (error.cause !== undefined) out.cause = this.value(error.cause, depth + 1, seen);
    return out;
  }
}
