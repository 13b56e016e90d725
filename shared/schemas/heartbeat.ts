import { z } from 'zod';
import { timestamp } from './common.ts';

// The kiosk→relay heartbeat (issue 18 "Heartbeat"), defined once for both ends: the kiosk builds it
// (electron/core/support/heartbeat.ts), the relay checks it strictly (relay/routes/fleet.ts). Only what a fleet page needs to tell
// whether a counter is alive and healthy: no amount of any sale, no key, token or PIN; a field not listed is refused.

/** The most a heartbeat body may weigh (bytes): the relay refuses a bigger one before parsing it. */
export const HEARTBEAT_MAX_BYTES = 2048;

/** A plain id: what the kiosk id, the POS and an error code look like (safe in a Prometheus label and in HTML). */
const plainId = (max: number) => z.string().regex(/^[A-Za-z0-9._:-]+$/).min(1).max(max);

export const heartbeatSchema = z.strictObject({
  /** A random id the kiosk made once and keeps in its settings: stable across restarts, tells two kiosks apart. */
  kiosk_id: z.string().regex(/^[A-Za-z0-9-]{8,64}$/),
  pos_id: plainId(128),
  /** The app's version (package.json). */
  version: z.string().regex(/^[0-9A-Za-z.+-]{1,32}$/),
  /** Seconds since the kiosk core started. */
  uptime_s: z.number().int().min(0).max(10 * 365 * 24 * 3600),
  connectivity: z.strictObject({
    platform: z.enum(['online', 'offline']),
    relay: z.enum(['live', 'polling', 'offline']),
  }),
  /** Refunds and cancels waiting to be sent (queued or sending), and those the platform refused (failed). */
  outbox: z.strictObject({ queued: z.number().int().min(0).max(1_000_000), failed: z.number().int().min(0).max(1_000_000) }),
  /** When the last sale was paid (its last update, UTC ISO 8601); null before the first. The time only, never the amount. */
  last_sale_at: timestamp.nullable(),
  /** The kiosk's latest problem code (a relay problem, or the last outbox failure's code); null when none. */
  last_error_code: plainId(64).nullable(),
});

export type Heartbeat = z.infer<typeof heartbeatSchema>;
