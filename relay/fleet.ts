import type { KioskScope } from './kiosk-keys.ts';
import { TEST_NOTIFICATIONS_KEPT, kioskKeyId, type FleetCaps, type FleetStore, type KioskBeat, type RecordResult, type TestNotification } from './fleet-store.ts';
import type { Clock } from '../node-common/time.ts';
import type { NotificationHealthTracker } from './notification-health.ts';
import type { NotificationHealth } from '../shared/push-health.ts';
import type { Heartbeat } from '../shared/schemas/heartbeat.ts';

// issue 18 "Heartbeat" and "Fleet page on the relay": kiosks report with their kiosk key; an operator reads the fleet
// with the deployment's admin key, a key of its own that no kiosk holds. The HTTP side is relay/routes/fleet.ts.

export interface FleetOptions {
  store: FleetStore;
  clock: Clock;
  /** issue 27: whether a kiosk key id (kioskKeyId) is one of the keys configured now. */
  isLiveKey: (keyId: string) => boolean;
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
  /** The caps a record is kept under (per seller, per kiosk key). */
  caps: FleetCaps;
  /** Keeps `heartbeat` as the kiosk's latest, for the key of `scope` (FleetStore.record); throws when the store fails. */
  record(scope: KioskScope, heartbeat: Heartbeat): Promise<RecordResult>;
  /** Every kiosk heard from within the retention, grouped by seller; throws when the store fails. */
  view(): Promise<FleetView>;
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

/** The fleet (issue 18) over its store; its routes are in relay/routes/fleet.ts. */
export function createFleet(options: FleetOptions): Fleet {
  const { store, clock } = options;
  const silentAfterMs = options.silentAfterMs ?? 5 * 60 * 1000;
  const retentionMs = options.retentionMs ?? 30 * DAY;
  const caps: FleetCaps = { perSeller: options.maxKiosksPerSeller ?? 500, perKey: options.maxKiosksPerKey ?? 20 };

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

  return {
    caps,
    async record(scope, heartbeat) {
      return store.record({ seller: scope.userId, keyId: kioskKeyId(scope.key), heartbeat, receivedAt: clock.now() }, caps, options.isLiveKey);
    },
    view,
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
