import type { Clock } from '../node-common/time.ts';
import type { Rejection } from './rejections.ts';
import { timestampMs } from './signature.ts';
import type { NotificationHealth, NotificationRefusal } from '../shared/push-health.ts';

// issue 27 item 1: with the platform's clock 400 s ahead every webhook was refused as stale, yet the kiosks showed the
// relay as live. The relay now keeps what it knows about the platform's notifications (the last one accepted, refusals
// by reason, the clock skew between the signature's `ts` and its own clock) and tells a kiosk on request, so the kiosk
// stops calling a silent push healthy and the screens can say what is wrong. Kept in memory: after a restart the relay
// knows nothing until the next notification, which is what "unknown" means to the kiosk (it polls anyway).

/** How the refusals of relay/rejections.ts group for an operator; the others are not about the platform's set-up. */
export function refusalKind(rejection: Rejection): NotificationRefusal | null {
  switch (rejection) {
    case 'stale_timestamp':
      return 'stale_timestamp';
    case 'bad_signature':
      return 'bad_signature';
    case 'missing_signature':
    case 'malformed_signature':
    case 'missing_request_id':
    case 'body_mismatch':
    case 'invalid_json':
    case 'invalid_type':
    case 'invalid_action':
    case 'invalid_data_id':
    case 'missing_user_id':
    case 'invalid_pos_id':
      return 'malformed';
    default:
      return null;
  }
}

/** The `ts` of an x-signature header as milliseconds, or null when there is none that reads (relay/signature.ts). */
export function signatureTsMs(header: string | undefined): number | null {
  const match = header === undefined ? null : /(?:^|,)\s*ts=(\d{1,16})\s*(?:,|$)/i.exec(header);
  return match?.[1] ? timestampMs(match[1]) : null;
}

export class NotificationHealthTracker {
  readonly #clock: Clock;
  #lastAcceptedAt: number | null = null;
  /** Seller → last accepted; only sellers of a configured application get here (accepted means routable). */
  readonly #sellerAcceptedAt = new Map<string, number>();
  #lastRefusedAt: number | null = null;
  #lastRefusal: NotificationRefusal | null = null;
  readonly #refused: Record<NotificationRefusal, number> = { stale_timestamp: 0, bad_signature: 0, malformed: 0 };
  #skewMs: number | null = null;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** A notification passed the signature, body and seller checks. `tsMs`: its signature's ts. */
  accepted(sellerId: string, tsMs: number): void {
    const now = this.#clock.now();
    this.#lastAcceptedAt = now;
    this.#sellerAcceptedAt.set(sellerId, now);
    this.#skewMs = tsMs - now;
  }

  /** A notification was refused; only the refusals refusalKind() groups are counted. `tsMs`: its ts when it reads. */
  refused(rejection: Rejection, tsMs: number | null): void {
    const kind = refusalKind(rejection);
    if (kind === null) return;
    const now = this.#clock.now();
    this.#refused[kind] += 1;
    this.#lastRefusedAt = now;
    this.#lastRefusal = kind;
    if (tsMs !== null) this.#skewMs = tsMs - now;
  }

  /** When the seller's last notification was accepted (relay clock), or null. */
  sellerAcceptedAt(sellerId: string): number | null {
    return this.#sellerAcceptedAt.get(sellerId) ?? null;
  }

  /**
   * The report for a kiosk of `sellerId` (null: an operator). `problem` is the reason of the newest refusal when it is
   * newer than the newest acceptance: one good notification after a refusal means the set-up works again. Anyone can
   * post junk to the public webhook URL, so a problem may also be someone else's refused junk; it never makes a kiosk
   * trust the push less than polling does (issue 27: the kiosk checks every waiting sale itself whatever this says).
   */
  report(sellerId: string | null): NotificationHealth {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const problem = this.#lastRefusedAt !== null && (this.#lastAcceptedAt === null || this.#lastRefusedAt > this.#lastAcceptedAt) ? this.#lastRefusal : null;
    return {
      checked_at: new Date(this.#clock.now()).toISOString(),
      last_accepted_at: iso(this.#lastAcceptedAt),
      seller_last_accepted_at: sellerId === null ? null : iso(this.sellerAcceptedAt(sellerId)),
      last_refused_at: iso(this.#lastRefusedAt),
      refused: { ...this.#refused },
      clock_skew_s: this.#skewMs === null ? null : Math.round(this.#skewMs / 1000),
      problem,
    };
  }
}
