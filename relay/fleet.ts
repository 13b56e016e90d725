import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bearerMatches } from './metrics-access.ts';
import type { AuthLimiter } from './auth-limiter.ts';
import type { KioskScope } from './kiosk-keys.ts';
import type { RelayMetrics } from './metrics.ts';
import { TEST_NOTIFICATIONS_KEPT, kioskKeyId, type FleetStore, type KioskBeat, type TestNotification } from './fleet-store.ts';
import { FLEET_PAGE_CSP, renderFleetPage } from './fleet-page.ts';
import type { Clock } from '../node-common/time.ts';
import type { NotificationHealthTracker } from './notification-health.ts';
import type { NotificationHealth } from '../shared/push-health.ts';
import { HEARTBEAT_MAX_BYTES, heartbeatSchema, type Heartbeat } from '../shared/schemas/heartbeat.ts';

// issue 18 "Heartbeat" and "Fleet page on the relay": kiosks report with their kiosk key; an operator reads the fleet
// with the deployment's admin key, a key of its own that no kiosk holds.

export interface FleetOptions {
  store: FleetStore;
  clock: Clock;
  metrics: RelayMetrics;
  /** The scope of the request's kiosk key (Authorization: Bearer), with the keys as they are now; null for none. */
  kioskScope: (request: FastifyRequest) => KioskScope | null;
  /** issue 27: whether a kiosk key id (kioskKeyId) is one of the keys configured now. */
  isLiveKey: (keyId: string) => boolean;
  /** The admin key for GET /fleet and /fleet.html; without one both are refused (403). */
  adminKey?: string | undefined;
  /** issue 27: failed admin-key attempts per source (429 beyond the limit). */
  authLimiter: AuthLimiter;
  /** A kiosk is flagged silent after this long without a heartbeat (issue 18: 5 minutes). */
  silentAfterMs?: number;
  /** Kiosks not heard from for this long are forgotten (default 30 days). */
  retentionMs?: number;
  /** At most this many kiosks per seller (default 500). */
  maxKiosksPerSeller?: number;
  /**
   * issue 27: at most this many kiosks per kiosk key (default 20: a kiosk keeps one id, and a reinstall makes a new one
   * while the old record waits out the retention), so one key cannot fill the seller's cap.
   */
  maxKiosksPerKey?: number;
  /**
   * issue 27 item 1: the platform's notifications as the relay saw them since `since` (when it started): the page names a
   * refusal, and flags a kiosk whose last sale was paid with no notification of its seller accepted after it.
   */
  notifications?: { tracker: NotificationHealthTracker; since: number };
}

export interface FleetKiosk extends Heartbeat {
  last_heartbeat_at: string;
  seconds_since_heartbeat: number;
  /**
   * `silent`: no heartbeat for more than silent_after_s; `outbox_failed`: the outbox holds refused items;
   * `no_notifications` (issue 27): a sale was paid NO_NOTIFICATION_GRACE_MS or more ago and no notification of the
   * seller was accepted since; no_notifications_min then says for how long.
   */
  flags: Array<'silent' | 'outbox_failed' | 'no_notifications'>;
  no_notifications_min?: number;
}

/** GET /fleet: every kiosk heard from within the retention, grouped by seller (sellers and kiosks in id order). */
export interface FleetView {
  generated_at: string;
  silent_after_s: number;
  kiosks: number;
  sellers: Array<{ seller: string; kiosks: FleetKiosk[] }>;
  /** issue 26: the dashboard's "Simulate notification"s the relay acknowledged, newest first (at most 20). */
  test_notifications: TestNotification[];
  /** issue 27: the relay's report on the platform's notifications (relay/notification-health.ts); null when not kept. */
  notifications: NotificationHealth | null;
}

export interface Fleet {
  /** issue 26: keeps a test notification for the fleet page (the newest 20); throws when the store fails. */
  recordTest(test: TestNotification): Promise<void>;
  /** The per-kiosk gauges for /metrics, read from the store at scrape time. */
  metricsText(): Promise<string>;
  prune(): Promise<number>;
  close(): Promise<void>;
}

const DAY = 24 * 3600 * 1000;
/**
 * issue 27: how long after a sale's creation its payment's notification may still be on its way before the page flags
 * the kiosk (the platform answers a failed delivery with retries, but the first attempt comes within seconds).
 */
export const NO_NOTIFICATION_GRACE_MS = 2 * 60 * 1000;

export function registerFleet(app: FastifyInstance, options: FleetOptions): Fleet {
  const { store, clock, metrics } = options;
  const silentAfterMs = options.silentAfterMs ?? 5 * 60 * 1000;
  const retentionMs = options.retentionMs ?? 30 * DAY;
  const maxKiosks = options.maxKiosksPerSeller ?? 500;
  const maxPerKey = options.maxKiosksPerKey ?? 20;

  const answer = (reply: FastifyReply, status: number, result: string, message: string) => {
    metrics.inc('relay_heartbeats_total', { result });
    return reply.code(status).send({ error: result, message });
  };

  app.post('/kiosks/heartbeat', async (request, reply) => {
    const scope = options.kioskScope(request);
    if (!scope) return answer(reply, 401, 'unauthorized', 'A valid kiosk key is required: Authorization: Bearer <key>.');
    const raw = typeof request.body === 'string' ? request.body : '';
    if (Buffer.byteLength(raw) > HEARTBEAT_MAX_BYTES) return answer(reply, 413, 'too_large', `A heartbeat is at most ${HEARTBEAT_MAX_BYTES} bytes.`);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return answer(reply, 400, 'invalid_heartbeat', 'The body must be a JSON object.');
    }
    const parsed = heartbeatSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : `${issue?.path.join('.')}: ${issue?.message}`;
      return answer(reply, 400, 'invalid_heartbeat', `Invalid heartbeat: ${where}.`);
    }
    // A key speaks for its own seller only, and a POS-limited key for its POS only (the same scope as its stream).
    if (scope.posIds !== null && !scope.posIds.includes(parsed.data.pos_id)) {
      return answer(reply, 403, 'pos_not_in_key', 'This kiosk key does not serve that POS.');
    }
    let result: Awaited<ReturnType<FleetStore['record']>>;
    try {
      result = await store.record({ seller: scope.userId, keyId: kioskKeyId(scope.key), heartbeat: parsed.data, receivedAt: clock.now() }, { perSeller: maxKiosks, perKey: maxPerKey }, options.isLiveKey);
    } catch {
      // Not kept: the kiosk sends its next heartbeat a minute later anyway.
      return answer(reply, 503, 'fleet_unavailable', 'The fleet store is unavailable; nothing was kept.');
    }
    if (result === 'full') return answer(reply, 429, 'too_many_kiosks', `This seller already has ${maxKiosks} kiosks reporting.`);
    if (result === 'other_key') return answer(reply, 409, 'kiosk_of_another_key', 'This kiosk id reports with another kiosk key.');
    if (result === 'key_full') return answer(reply, 429, 'too_many_kiosks_for_key', `This kiosk key already has ${maxPerKey} kiosks reporting.`);
    metrics.inc('relay_heartbeats_total', { result: 'recorded' });
    return reply.code(200).send({ status: 'recorded' });
  });

  /** Answers the refusal and returns false unless the request carries the admin key. */
  const admitted = (request: FastifyRequest, reply: FastifyReply, page: boolean): boolean => {
    const header = request.headers.authorization;
    // issue 27: a source that failed too often waits, whatever it sends now (or guessing would simply go on).
    const wait = options.authLimiter.retryAfterSeconds(request.ip);
    if (wait !== null) {
      metrics.inc('relay_admin_auth_refused_total', { reason: 'rate_limited' });
      void reply.code(429).header('retry-after', String(wait)).send({ error: 'too_many_attempts', message: `Too many failed admin-key attempts from this address; retry in ${wait} s.` });
      return false;
    }
    if (options.adminKey !== undefined && (bearerMatches(header, options.adminKey) || (page && basicMatches(header, options.adminKey)))) return true;
    if (options.kioskScope(request) !== null) {
      // A kiosk key is a known credential of the wrong kind: forbidden, not unknown.
      void reply.code(403).send({ error: 'forbidden', message: 'A kiosk key cannot read the fleet: use the admin key.' });
      return false;
    }
    if (options.adminKey === undefined) {
      void reply.code(403).send({ error: 'fleet_disabled', message: 'The fleet page needs the relay started with --admin-key.' });
      return false;
    }
    // A credential that is not the admin key counts against its source; no credential at all (a browser's first
    // request, before it asks for the key) does not.
    if (header !== undefined) {
      options.authLimiter.fail(request.ip);
      metrics.inc('relay_admin_auth_refused_total', { reason: 'wrong_key' });
    }
    // The page also takes Basic auth (any user name, the admin key as password), so a browser can ask for it.
    if (page) reply.header('www-authenticate', 'Basic realm="kiosk fleet", charset="UTF-8"');
    void reply.code(401).send({ error: 'unauthorized', message: 'The admin key is required: Authorization: Bearer <admin key>.' });
    return false;
  };

  const view = async (): Promise<FleetView> => {
    const now = clock.now();
    const [beats, tests] = await Promise.all([store.list(now - retentionMs), store.listTests()]);
    const sellers = new Map<string, FleetKiosk[]>();
    for (const beat of beats) {
      const list = sellers.get(beat.seller) ?? [];
      list.push(withNotificationFlag(fleetKiosk(beat, now, silentAfterMs), beat.seller, now, options.notifications));
      sellers.set(beat.seller, list);
    }
    return {
      generated_at: new Date(now).toISOString(),
      silent_after_s: Math.round(silentAfterMs / 1000),
      kiosks: beats.length,
      sellers: [...sellers].map(([seller, kiosks]) => ({ seller, kiosks })),
      test_notifications: tests,
      notifications: options.notifications?.tracker.report(null) ?? null,
    };
  };

  app.get('/fleet', async (request, reply) => {
    if (!admitted(request, reply, false)) return reply;
    try {
      return reply.code(200).header('cache-control', 'no-store').send(await view());
    } catch {
      return reply.code(503).send({ error: 'fleet_unavailable', message: 'The fleet store is unavailable.' });
    }
  });

  app.get('/fleet.html', async (request, reply) => {
    if (!admitted(request, reply, true)) return reply;
    let page: string;
    try {
      page = renderFleetPage(await view());
    } catch {
      return reply.code(503).send({ error: 'fleet_unavailable', message: 'The fleet store is unavailable.' });
    }
    return reply
      .code(200)
      .headers({ 'content-security-policy': FLEET_PAGE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' })
      .type('text/html; charset=utf-8')
      .send(page);
  });

  return {
    recordTest: (test) => store.recordTest(test, TEST_NOTIFICATIONS_KEPT),
    async metricsText() {
      let fleet: FleetView;
      try {
        fleet = await view();
      } catch {
        return gauge('relay_fleet_readable', 'Whether the fleet store answered this scrape (1) or not (0).', [['', 0]]);
      }
      const kiosks = fleet.sellers.flatMap((s) => s.kiosks.map((k) => ({ k, labels: `seller="${s.seller}",kiosk="${k.kiosk_id}",pos="${k.pos_id}"` })));
      return [
        gauge('relay_fleet_readable', 'Whether the fleet store answered this scrape (1) or not (0).', [['', 1]]),
        gauge('relay_kiosk_heartbeat_age_seconds', 'Seconds since the kiosk last sent a heartbeat.', kiosks.map(({ k, labels }) => [labels, k.seconds_since_heartbeat])),
        gauge('relay_kiosk_silent', `1 when the kiosk sent no heartbeat for more than ${fleet.silent_after_s} s.`, kiosks.map(({ k, labels }) => [labels, k.flags.includes('silent') ? 1 : 0])),
        gauge('relay_kiosk_outbox_queued', 'Refunds and cancels waiting in the kiosk outbox, at its last heartbeat.', kiosks.map(({ k, labels }) => [labels, k.outbox.queued])),
        gauge('relay_kiosk_outbox_failed', 'Refunds and cancels the platform refused, in the kiosk outbox at its last heartbeat.', kiosks.map(({ k, labels }) => [labels, k.outbox.failed])),
        gauge('relay_kiosk_info', 'The kiosk app version (value always 1).', kiosks.map(({ k, labels }) => [`${labels},version="${k.version}"`, 1])),
      ].join('');
    },
    prune: () => store.prune(clock.now() - retentionMs),
    close: () => store.close(),
  };
}

function fleetKiosk(beat: KioskBeat, now: number, silentAfterMs: number): FleetKiosk {
  const age = Math.max(0, now - beat.receivedAt);
  const flags: FleetKiosk['flags'] = [];
  if (age > silentAfterMs) flags.push('silent');
  if (beat.heartbeat.outbox.failed > 0) flags.push('outbox_failed');
  return { ...beat.heartbeat, last_heartbeat_at: new Date(beat.receivedAt).toISOString(), seconds_since_heartbeat: Math.floor(age / 1000), flags };
}

/**
 * issue 27: flags the kiosk whose newest sale (created at last_sale_at, after the relay started, long enough ago) has
 * no notification of its seller accepted after it: its payment's notification never made it through.
 */
function withNotificationFlag(kiosk: FleetKiosk, seller: string, now: number, notifications: FleetOptions['notifications']): FleetKiosk {
  const saleAt = kiosk.last_sale_at === null ? NaN : Date.parse(kiosk.last_sale_at);
  if (!notifications || Number.isNaN(saleAt) || saleAt < notifications.since || now - saleAt < NO_NOTIFICATION_GRACE_MS) return kiosk;
  const acceptedAt = notifications.tracker.sellerAcceptedAt(seller);
  if (acceptedAt !== null && acceptedAt >= saleAt) return kiosk;
  const quietSince = acceptedAt ?? notifications.since;
  return { ...kiosk, flags: [...kiosk.flags, 'no_notifications'], no_notifications_min: Math.max(1, Math.floor((now - quietSince) / 60_000)) };
}

/** Prometheus text of one gauge; label values are seller digits and schema-restricted ids, so none needs escaping. */
function gauge(name: string, help: string, samples: Array<[string, number]>): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} gauge`, ...samples.map(([labels, value]) => (labels ? `${name}{${labels}} ${value}` : `${name} ${value}`))];
  return lines.join('\n') + '\n';
}

/** `Authorization: Basic base64(user:password)` whose password is `key` (checked in constant time by bearerMatches). */
function basicMatches(header: string | undefined, key: string): boolean {
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && bearerMatches(`Bearer ${decoded.slice(colon + 1)}`, key);
}
