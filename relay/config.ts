import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseKioskKey, type KioskScope } from './kiosk-keys.ts';

export interface RelayConfig {
  port: number;
  host: string;
  platformUrl: string;
  data?: string;
  webhookSecrets: string[];
  kioskKeys: KioskScope[];
  platformToken?: string;
  redis?: string;
  retentionDays: number;
}

export const RELAY_USAGE = `Usage: npm run relay -- --port N --platform-url URL --webhook-secret S [--webhook-secret S2 ...]
         --kiosk-key KEY=USER_ID[:POS1,POS2...] [...] [--data FILE] [--platform-token TOKEN] [--redis URL]
         [--host ADDRESS] [--retention-days N] [--config FILE]

Every setting can also come from a JSON config file (--config FILE or RELAY_CONFIG) with the keys
port, host, platformUrl, data, webhookSecrets[], kioskKeys[], platformToken, redis, retentionDays,
or from the environment: RELAY_PORT, RELAY_HOST, RELAY_PLATFORM_URL, RELAY_DATA, RELAY_WEBHOOK_SECRETS (comma-separated),
RELAY_KIOSK_KEYS (space-separated KEY=USER_ID[:POS1,POS2] entries), RELAY_PLATFORM_TOKEN,
RELAY_REDIS_URL, RELAY_RETENTION_DAYS. Flags win over the environment, which wins over the file.
`;

const FLAGS = new Set(['--port', '--host', '--platform-url', '--data', '--webhook-secret', '--kiosk-key', '--platform-token', '--redis', '--retention-days', '--config']);

/** Ten years: beyond that the Redis backend's expiry (PX) and the retention arithmetic stop making sense. */
const MAX_RETENTION_DAYS = 3650;

const fileSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  platformUrl: z.string().optional(),
  data: z.string().min(1).optional(),
  webhookSecrets: z.array(z.string().min(1)).optional(),
  kioskKeys: z.array(z.string()).optional(),
  platformToken: z.string().min(1).optional(),
  redis: z.string().optional(),
  retentionDays: z.number().positive().max(MAX_RETENTION_DAYS).optional(),
});
type Partial = z.infer<typeof fileSchema>;

export type ConfigResult = { ok: true; config: RelayConfig } | { ok: false; error: string } | { ok: true; help: true };

/** Flags, then environment, then config file; every problem is one clear sentence naming the setting. */
export function loadRelayConfig(argv: string[], env: NodeJS.ProcessEnv, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): ConfigResult {
  const flags: Partial = {};
  const secrets: string[] = [];
  const kioskKeys: string[] = [];
  let configPath = env.RELAY_CONFIG;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | null => {
      if (eq > 0) return arg.slice(eq + 1);
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) return null;
      i += 1;
      return next;
    };
    if (name === '--help' || name === '-h') return { ok: true, help: true };
    // Known flags first: an unknown one must be named as such, and must not swallow the next argument as its value.
    if (!FLAGS.has(name)) {
      // A stray word is not echoed: it is often a second secret after one --webhook-secret.
      return { ok: false, error: name.startsWith('-') ? `unknown flag ${name}` : `unexpected argument number ${i + 1}: every setting is a --flag followed by its value` };
    }
    const v = value();
    if (v === null) return { ok: false, error: `${name} needs a value` };
    switch (name) {
      case '--port':
        if (!/^\d+$/.test(v) || Number(v) > 65535) return { ok: false, error: `--port needs a number from 0 to 65535, got ${v}` };
        flags.port = Number(v);
        break;
      case '--host':
        flags.host = v;
        break;
      case '--platform-url':
        flags.platformUrl = v;
        break;
      case '--data':
        flags.data = v;
        break;
      case '--webhook-secret':
        secrets.push(v);
        break;
      case '--kiosk-key':
        kioskKeys.push(v);
        break;
      case '--platform-token':
        flags.platformToken = v;
        break;
      case '--redis':
        flags.redis = v;
        break;
      case '--retention-days':
        if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0 || Number(v) > MAX_RETENTION_DAYS) {
          return { ok: false, error: `--retention-days needs a number of days above 0 and at most ${MAX_RETENTION_DAYS}, got ${v}` };
        }
        flags.retentionDays = Number(v);
        break;
      case '--config':
        configPath = v;
        break;
      default:
        return { ok: false, error: `unknown flag ${name}` };
    }
  }
  if (secrets.length > 0) flags.webhookSecrets = secrets;
  if (kioskKeys.length > 0) flags.kioskKeys = kioskKeys;

  let file: Partial = {};
  if (configPath) {
    let text: string;
    try {
      text = readFile(configPath);
    } catch (e) {
      return { ok: false, error: `cannot read config file ${configPath}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ok: false, error: `config file ${configPath} is not valid JSON` };
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.code === 'unrecognized_keys' ? `unknown setting ${issue.keys.join(', ')}` : `${issue?.path.join('.')}: ${issue?.message}`;
      return { ok: false, error: `config file ${configPath}: ${where}` };
    }
    file = parsed.data;
  }

  const fromEnv: Partial = {};
  // An empty variable counts as unset, as for every other RELAY_* variable.
  if (env.RELAY_PORT) {
    if (!/^\d+$/.test(env.RELAY_PORT) || Number(env.RELAY_PORT) > 65535) return { ok: false, error: `RELAY_PORT must be a number from 0 to 65535` };
    fromEnv.port = Number(env.RELAY_PORT);
  }
  if (env.RELAY_HOST) fromEnv.host = env.RELAY_HOST;
  if (env.RELAY_PLATFORM_URL) fromEnv.platformUrl = env.RELAY_PLATFORM_URL;
  if (env.RELAY_DATA) fromEnv.data = env.RELAY_DATA;
  if (env.RELAY_WEBHOOK_SECRETS) fromEnv.webhookSecrets = env.RELAY_WEBHOOK_SECRETS.split(',').map((s) => s.trim()).filter(Boolean);
  if (env.RELAY_KIOSK_KEYS) fromEnv.kioskKeys = env.RELAY_KIOSK_KEYS.split(/\s+/).filter(Boolean);
  if (env.RELAY_PLATFORM_TOKEN) fromEnv.platformToken = env.RELAY_PLATFORM_TOKEN;
  if (env.RELAY_REDIS_URL) fromEnv.redis = env.RELAY_REDIS_URL;
  if (env.RELAY_RETENTION_DAYS) {
    const days = Number(env.RELAY_RETENTION_DAYS);
    if (!(days > 0 && days <= MAX_RETENTION_DAYS)) return { ok: false, error: `RELAY_RETENTION_DAYS must be a number of days above 0 and at most ${MAX_RETENTION_DAYS}` };
    fromEnv.retentionDays = days;
  }

  const merged = { ...file, ...fromEnv, ...flags };
  if (merged.port === undefined) return { ok: false, error: '--port is required (0 picks a free port)' };
  if (!merged.platformUrl || !URL.canParse(merged.platformUrl) || !/^https?:$/.test(new URL(merged.platformUrl).protocol)) {
    return { ok: false, error: `--platform-url must be an http(s) URL, got ${merged.platformUrl ?? 'nothing'}` };
  }
  if (!merged.webhookSecrets || merged.webhookSecrets.length === 0) return { ok: false, error: 'at least one --webhook-secret is required' };
  if (merged.webhookSecrets.some((s) => s.length < 16)) return { ok: false, error: 'a webhook secret must be at least 16 characters' };
  if (merged.redis && !/^rediss?:\/\//.test(merged.redis)) return { ok: false, error: `--redis must be a redis:// or rediss:// URL` };
  if (merged.redis && merged.data) return { ok: false, error: '--data and --redis are two different logs: give one of them' };
  const scopes: KioskScope[] = [];
  for (const text of merged.kioskKeys ?? []) {
    const parsed = parseKioskKey(text);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    if (scopes.some((s) => s.key === parsed.scope.key)) return { ok: false, error: 'the same kiosk key is given twice' };
    scopes.push(parsed.scope);
  }
  return {
    ok: true,
    config: {
      port: merged.port,
      host: merged.host ?? '127.0.0.1',
      platformUrl: merged.platformUrl,
      ...(merged.data ? { data: merged.data } : {}),
      webhookSecrets: merged.webhookSecrets,
      kioskKeys: scopes,
      ...(merged.platformToken ? { platformToken: merged.platformToken } : {}),
      ...(merged.redis ? { redis: merged.redis } : {}),
      retentionDays: merged.retentionDays ?? 7,
    },
  };
}
