import { z } from 'zod';
import { timestamp } from './common.ts';
import { IPN_TOPICS } from './notification.ts';

// The relay→kiosk event format (relay README "What a kiosk receives"), defined once for both ends (issue 13, like the
// renderer↔main contract): the relay types what it writes with it, the kiosk's subscriber reads events into it.

/** Why a stream opens with `event: reset`: the kiosk's id is older than what the log keeps, or not an id of this log. */
export const RELAY_RESET_REASONS = ['history_pruned', 'unknown_id'] as const;
export const relayResetDataSchema = z.object({ reason: z.enum(RELAY_RESET_REASONS) });
export type RelayResetData = z.infer<typeof relayResetDataSchema>;

/**
 * The data of a webhook's event: the platform's body as sent (a hint, issue 12: unsigned, so never a fact) plus the
 * relay's own `relay_*` fields, which replace any the body brought.
 */
export const relayWebhookDataSchema = z.looseObject({
  relay_received_at: timestamp,
  /** true only when the relay read the order from the platform itself (README "Trust model"). */
  relay_verified: z.boolean(),
  /** The status the platform gave the relay, when relay_verified (null when it gave none the relay could read). */
  relay_verified_status: z.string().nullable().optional(),
});
export type RelayWebhookData = z.infer<typeof relayWebhookDataSchema>;

/** The data of a legacy IPN's event (`ipn.<topic>`): the resource as the relay fetched it from the platform. */
export const relayIpnDataSchema = z.object({
  topic: z.enum(IPN_TOPICS),
  id: z.string(),
  request_id: z.string().nullable(),
  resource: z.record(z.string(), z.unknown()),
  relay_received_at: timestamp,
});
export type RelayIpnData = z.infer<typeof relayIpnDataSchema>;

/** The data of any event other than `reset`. */
export const relayEventDataSchema = z.union([relayIpnDataSchema, relayWebhookDataSchema]);

/**
 * One event as a kiosk receives it: the SSE `id` (what it sends back as Last-Event-ID), the `event` name (the action,
 * `<type>.updated`, `ipn.<topic>` or `reset`) and `data`, the JSON the relay wrote (one of the schemas above), parsed.
 * `data` stays unknown here: the receiver takes what it needs with its own schema (orderWakeUpSchema), so an event it
 * cannot use is skipped, never a broken stream.
 */
export const relayEventSchema = z.object({ id: z.string(), type: z.string(), data: z.unknown() });
export type RelayEvent = z.infer<typeof relayEventSchema>;

/** Reads one SSE event into a RelayEvent: `data` is the parsed JSON, or the raw text when it is not JSON. */
export function parseRelayEvent(id: string, type: string, text: string): RelayEvent {
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch {
    data = text;
  }
  return { id, type, data };
}
