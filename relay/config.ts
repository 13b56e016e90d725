import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parseKioskKey, type KioskScope } from './kiosk-keys.ts';
import { MIN_SECRET_LENGTH, resolveApplications, type WebhookApplication } from './applications.ts';
import { checkSellerTokens, parseApplications, parseSellerTokens } from './config-entries.ts';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './server-limits.ts';
import { DEFAULT_IPN_LIMITS, type IpnLimits } from './ipn-lookups.ts';
import type { MetricsAccess } from './metrics-access.ts';

export interface RelayConfig {
  port: number;
  host: string;
  platformUrl: string;
  data?: string;
  /** The legacy single application: these secrets speak for the sellers of the kiosk keys (README "Trust model"). */
  webhookSecrets: string[];
  applications: WebhookApplication[];
  kioskKeys: KioskScope[];
  platformToken?: string;
  /** user_id → access token, for the relay's own confirmation of that seller's orders. */
  sellerTokens: Record<string, string>;
  redis?: string;
  retentionDays: number;
  server: ServerLimits;
  ipn: IpnLimits;
  metrics: MetricsAccess;
  /** issue 18: the key of GET /fleet and /fleet.html; never a kiosk key. */
  adminKey?: string;
}

/** Whole-number settings: flag, variable and bounds (the config file key is the property name). */
const NUMBERS = {
  headersTimeoutMs: { flag: '--headers-timeout-ms', env: 'RELAY_HEADERS_TIMEOUT_MS', min: 1, max: 3_600_000 },
  requestTimeoutMs: { flag: '--request-timeout-ms', env: 'RELAY_REQUEST_TIMEOUT_MS', min: 1, max: 3_600_000 },
  keepAliveTimeoutMs: { flag: '--keep-alive-timeout-ms', env: 'RELAY_KEEP_ALIVE_TIMEOUT_MS', min: 1, max: 3_600_000 },
  maxConnections: { flag: '--max-connections', env: 'RELAY_MAX_CONNECTIONS', min: 1, max: 1_000_000 },
  ipnConcurrency: { flag: '--ipn-concurrency', env: 'RELAY_IPN_CONCURRENCY', min: 1, max: 256 },
  ipnQueue: { flag: '--ipn-queue', env: 'RELAY_IPN_QUEUE', min: 1, max: 100_000 },
  ipnRatePerSecond: { flag: '--ipn-rate', env: 'RELAY_IPN_RATE', min: 1, max: 10_000 },
  metricsPort: { flag: '--metrics-port', env: 'RELAY_METRICS_PORT', min: 0, max: 65535 },
} as const;
type NumberSetting = keyof typeof NUMBERS;
const NUMBER_FLAGS = new Map(Object.entries(NUMBERS).map(([key, spec]) => [spec.flag as string, key as NumberSetting]));

const FLAGS = new Set([
  '--port',
  '--host',
  '--platform-url',
  '--data',
  '--webhook-secret',
  '--application',
  '--kiosk-key',
  '--platform-token',
  '--seller-token',
  '--redis',
  '--retention-days',
  '--metrics-host',
  '--metrics-token',
  '--metrics-open',
  '--admin-key',
  '--config',
  ...NUMBER_FLAGS.keys(),
]);

/** Ten years: beyond that the Redis backend's expiry (PX) and the retention arithmetic stop making sense. */
const MAX_RETENTION_DAYS = 3650;
/** A bearer token anyone could guess protects nothing. */
const MIN_METRICS_TOKEN_LENGTH = 16;
/** The admin key reads every seller's fleet: at least as long as a kiosk key. */
const MIN_ADMIN_KEY_LENGTH = 16;

const whole = (key: NumberSetting) => z.number().int().min(NUMBERS[key].min).max(NUMBERS[key].max).optional();

const fileSchema = z.strictObject({
  port: z.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  platformUrl: z.string().optional(),
  data: z.string().min(1).optional(),
  applications: z
    .array(
      z.strictObject({
        id: z.string(),
        secrets: z.array(z.string()),
        sellers: z.array(z.union([z.string(), z.number().int().nonnegative()]).transform(String)),
      }),
    )
    .optional(),
  webhookSecrets: z.array(z.string().min(1)).optional(),
  kioskKeys: z.array(z.string()).optional(),
  platformToken: z.string().min(1).optional(),
  sellerTokens: z.record(z.string(), z.string()).optional(),
  redis: z.string().optional(),
  retentionDays: z.number().positive().max(MAX_RETENTION_DAYS).optional(),
  headersTimeoutMs: whole('headersTimeoutMs'),
  requestTimeoutMs: whole('requestTimeoutMs'),
  keepAliveTimeoutMs: whole('keepAliveTimeoutMs'),
  maxConnections: whole('maxConnections'),
  ipnConcurrency: whole('ipnConcurrency'),
  ipnQueue: whole('ipnQueue'),
  ipnRatePerSecond: whole('ipnRatePerSecond'),
  metricsHost: z.string().min(1).optional(),
  metricsPort: whole('metricsPort'),
  metricsToken: z.string().optional(),
  metricsOpen: z.boolean().optional(),
  adminKey: z.string().optional(),
});
type Partial = z.infer<typeof fileSchema>;

export type ConfigResult = { ok: true; config: RelayConfig } | { ok: false; error: string } | { ok: true; help: true };

/** Flags, then environment, then config file; every problem is one clear sentence naming the setting. */
export function loadRelayConfig(argv: string[], env: NodeJS.ProcessEnv, readFile: (path: string) => string = (p) => readFileSync(p, 'utf8')): ConfigResult {
  const flags: Partial = {};
  const secrets: string[] = [];
  const kioskKeys: string[] = [];
  const applicationTexts: string[] = [];
  const sellerTokenTexts: string[] = [];
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
    // issue 27: the one switch without a value.
    if (name === '--metrics-open') {
      if (eq > 0) return { ok: false, error: '--metrics-open takes no value' };
      flags.metricsOpen = true;
      continue;
    }
    const v = value();
    if (v === null) return { ok: false, error: `${name} needs a value` };
    const numberSetting = NUMBER_FLAGS.get(name);
    if (numberSetting !== undefined) {
      const spec = NUMBERS[numberSetting];
      if (!/^\d{1,9}$/.test(v) || Number(v) < spec.min || Number(v) > spec.max) return { ok: false, error: `${name} needs a whole number from ${spec.min} to ${spec.max}, got ${v.slice(0, 32)}` };
      flags[numberSetting] = Number(v);
      continue;
    }
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
      case '--application':
        applicationTexts.push(v);
        break;
      case '--platform-token':
        flags.platformToken = v;
        break;
      case '--seller-token':
        sellerTokenTexts.push(v);
        break;
      case '--metrics-host':
        flags.metricsHost = v;
        break;
      case '--metrics-token':
        flags.metricsToken = v;
        break;
      case '--admin-key':
        flags.adminKey = v;
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
  if (applicationTexts.length > 0) {
    const parsed = parseApplications(applicationTexts, '--application');
    if (!parsed.ok) return parsed;
    flags.applications = parsed.applications;
  }
  if (sellerTokenTexts.length > 0) {
    const parsed = parseSellerTokens(sellerTokenTexts, '--seller-token');
    if (!parsed.ok) return parsed;
    flags.sellerTokens = parsed.tokens;
  }

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
  if (env.RELAY_APPLICATIONS) {
    const parsed = parseApplications(env.RELAY_APPLICATIONS.split(/\s+/).filter(Boolean), 'RELAY_APPLICATIONS');
    if (!parsed.ok) return parsed;
    fromEnv.applications = parsed.applications;
  }
  if (env.RELAY_SELLER_TOKENS) {
    const parsed = parseSellerTokens(env.RELAY_SELLER_TOKENS.split(/\s+/).filter(Boolean), 'RELAY_SELLER_TOKENS');
    if (!parsed.ok) return parsed;
    fromEnv.sellerTokens = parsed.tokens;
  }
  if (env.RELAY_METRICS_HOST) fromEnv.metricsHost = env.RELAY_METRICS_HOST;
  if (env.RELAY_METRICS_TOKEN) fromEnv.metricsToken = env.RELAY_METRICS_TOKEN;
  if (env.RELAY_METRICS_OPEN) {
    if (!/^(1|true|0|false)$/.test(env.RELAY_METRICS_OPEN)) return { ok: false, error: 'RELAY_METRICS_OPEN must be 1, true, 0 or false' };
    fromEnv.metricsOpen = /^(1|true)$/.test(env.RELAY_METRICS_OPEN);
  }
  if (env.RELAY_ADMIN_KEY) fromEnv.adminKey = env.RELAY_ADMIN_KEY;
  for (const [key, spec] of Object.entries(NUMBERS) as Array<[NumberSetting, (typeof NUMBERS)[NumberSetting]]>) {
    const text = env[spec.env];
    if (!text) continue;
    if (!/^\d{1,9}$/.test(text) || Number(text) < spec.min || Number(text) > spec.max) return { ok: false, error: `${spec.env} must be a whole number from ${spec.min} to ${spec.max}` };
    fromEnv[key] = Number(text);
  }

  const merged = { ...file, ...fromEnv, ...flags };
  if (merged.port === undefined) return { ok: false, error: '--port is required (0 picks a free port)' };
  if (!merged.platformUrl || !URL.canParse(merged.platformUrl) || !/^https?:$/.test(new URL(merged.platformUrl).protocol)) {
    return { ok: false, error: `--platform-url must be an http(s) URL, got ${merged.platformUrl ?? 'nothing'}` };
  }
  const webhookSecrets = merged.webhookSecrets ?? [];
  const configured = (merged.applications ?? []).map((a) => ({ id: a.id, secrets: a.secrets, sellers: a.sellers }));
  if (webhookSecrets.length === 0 && configured.length === 0) return { ok: false, error: 'at least one --webhook-secret or --application is required' };
  if (webhookSecrets.some((s) => s.length < MIN_SECRET_LENGTH)) return { ok: false, error: `a webhook secret must be at least ${MIN_SECRET_LENGTH} characters` };
  if (merged.redis && !/^rediss?:\/\//.test(merged.redis)) return { ok: false, error: `--redis must be a redis:// or rediss:// URL` };
  if (merged.redis && merged.data) return { ok: false, error: '--data and --redis are two different logs: give one of them' };
  const scopes: KioskScope[] = [];
  for (const text of merged.kioskKeys ?? []) {
    const parsed = parseKioskKey(text);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    if (scopes.some((s) => s.key === parsed.scope.key)) return { ok: false, error: 'the same kiosk key is given twice' };
    scopes.push(parsed.scope);
  }
  try {
    // Ids, secrets and sellers of every application, legacy one included: one secret belongs to one application.
    resolveApplications(configured, webhookSecrets, scopes);
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const sellerTokens = merged.sellerTokens ?? {};
  const tokenProblem = checkSellerTokens(sellerTokens);
  if (tokenProblem) return { ok: false, error: tokenProblem };
  const server: ServerLimits = {
    headersTimeoutMs: merged.headersTimeoutMs ?? DEFAULT_SERVER_LIMITS.headersTimeoutMs,
    requestTimeoutMs: merged.requestTimeoutMs ?? DEFAULT_SERVER_LIMITS.requestTimeoutMs,
    keepAliveTimeoutMs: merged.keepAliveTimeoutMs ?? DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs,
    maxConnections: merged.maxConnections ?? DEFAULT_SERVER_LIMITS.maxConnections,
  };
  if (server.headersTimeoutMs > server.requestTimeoutMs) return { ok: false, error: '--headers-timeout-ms cannot be longer than --request-timeout-ms' };
  if (merged.metricsHost !== undefined && merged.metricsPort === undefined) return { ok: false, error: '--metrics-host needs --metrics-port (the metrics listener)' };
  if (merged.metricsPort !== undefined && merged.metricsPort !== 0 && merged.metricsPort === merged.port) {
    return { ok: false, error: '--metrics-port must differ from --port (it is a second listener)' };
  }
  if (merged.metricsToken !== undefined && (merged.metricsToken.length < MIN_METRICS_TOKEN_LENGTH || /\s/.test(merged.metricsToken))) {
    return { ok: false, error: `--metrics-token must be at least ${MIN_METRICS_TOKEN_LENGTH} characters without spaces` };
  }
  // issue 18: the admin key is an operator's credential of its own; one a kiosk also holds would open every seller's
  // fleet to that kiosk. The message never repeats the key.
  if (merged.adminKey !== undefined && (merged.adminKey.length < MIN_ADMIN_KEY_LENGTH || /\s/.test(merged.adminKey))) {
    return { ok: false, error: `--admin-key must be at least ${MIN_ADMIN_KEY_LENGTH} characters without spaces` };
  }
  if (merged.adminKey !== undefined && scopes.some((s) => s.key === merged.adminKey)) return { ok: false, error: '--admin-key must differ from every kiosk key' };
  return {
    ok: true,
    config: {
      port: merged.port,
      host: merged.host ?? '127.0.0.1',
      platformUrl: merged.platformUrl,
      ...(merged.data ? { data: merged.data } : {}),
      webhookSecrets,
      applications: configured,
      kioskKeys: scopes,
      ...(merged.platformToken ? { platformToken: merged.platformToken } : {}),
      sellerTokens,
      ...(merged.redis ? { redis: merged.redis } : {}),
      retentionDays: merged.retentionDays ?? 7,
      server,
      ipn: {
        concurrency: merged.ipnConcurrency ?? DEFAULT_IPN_LIMITS.concurrency,
        queue: merged.ipnQueue ?? DEFAULT_IPN_LIMITS.queue,
        perSecond: merged.ipnRatePerSecond ?? DEFAULT_IPN_LIMITS.perSecond,
      },
      metrics: {
        ...(merged.metricsPort !== undefined ? { host: merged.metricsHost ?? '127.0.0.1', port: merged.metricsPort } : {}),
        ...(merged.metricsToken !== undefined ? { token: merged.metricsToken } : {}),
        ...(merged.metricsOpen === true ? { open: true } : {}),
      },
      ...(merged.adminKey !== undefined ? { adminKey: merged.adminKey } : {}),
    },
  };
}
