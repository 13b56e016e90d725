import { z } from 'zod';

// issue 27 item 1 "A bound on how late Paid can be": what the relay tells a kiosk about the platform's notifications
// (GET /notifications/health on the relay, relay/notification-health.ts), and the push problems the kiosk's status line
// words in es/pt/en (renderer/src/i18n). Defined once for both ends.

/**
 * Why the relay refused the platform's notifications, grouped as an operator fixes them (platform-facts "Webhooks"):
 * `stale_timestamp`: the signature's ts is more than the tolerance (300 s) from the relay's clock, one of the two clocks
 * is wrong; `bad_signature`: signed with a secret the relay does not have (a rotated secret, another application's);
 * `malformed`: unsigned, an unreadable x-signature, no x-request-id, or a body that is not a notification.
 */
export const NOTIFICATION_REFUSALS = ['stale_timestamp', 'bad_signature', 'malformed'] as const;
export type NotificationRefusal = (typeof NOTIFICATION_REFUSALS)[number];

const isoOrNull = z.string().max(40).nullable();

/** GET /notifications/health on the relay (kiosk key or admin key). */
export const notificationHealthSchema = z.object({
  /** The relay's clock when it answered. */
  checked_at: z.string().max(40),
  /** The last notification the relay accepted (signature, body and seller all right), from any seller. */
  last_accepted_at: isoOrNull,
  /** The same for the asking kiosk key's seller; null for the admin key, or before the first. */
  seller_last_accepted_at: isoOrNull,
  last_refused_at: isoOrNull,
  /** Refusals since the relay started, by reason. */
  refused: z.object({ stale_timestamp: z.number().int().min(0), bad_signature: z.number().int().min(0), malformed: z.number().int().min(0) }),
  /**
   * The platform's `ts` minus the relay's clock, in whole seconds, for the newest notification whose ts could be read
   * (accepted or not): positive when the platform's clock is ahead. Null before the first.
   */
  clock_skew_s: z.number().int().nullable(),
  /** What is wrong now: the newest notification was refused, for this reason (null: the newest was accepted, or none came). */
  problem: z.enum(NOTIFICATION_REFUSALS).nullable(),
});
export type NotificationHealth = z.infer<typeof notificationHealthSchema>;

/**
 * Why the kiosk's push is not to be trusted (Connectivity.pushProblem), worded by the status line:
 * the relay's refusals, and `no_notifications`: sales were paid (the kiosk saw it by its own GET) while no notification
 * came for `minutes` minutes.
 */
export const PUSH_PROBLEM_CODES = [...NOTIFICATION_REFUSALS, 'no_notifications'] as const;
export type PushProblemCode = (typeof PUSH_PROBLEM_CODES)[number];

export interface PushProblem {
  code: PushProblemCode;
  /** stale_timestamp: how far the platform's clock is from the relay's, in seconds (positive: ahead); else null. */
  skewSeconds: number | null;
  /** no_notifications: whole minutes without a notification (at least 1); else null. */
  minutes: number | null;
}

/** The code a heartbeat carries for a push problem (heartbeatSchema's last_error_code: a plain id). */
export function pushProblemErrorCode(problem: PushProblem): string {
  return `push.${problem.code}`;
}
