import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AdminGate } from '../admin-auth.ts';
import type { Fleet } from '../fleet.ts';
import type { KioskScope } from '../kiosk-keys.ts';
import type { EventLog } from '../log/event-log.ts';
import type { RelayMetrics } from '../metrics.ts';
import type { NotificationHealthTracker } from '../notification-health.ts';
import { REJECTIONS, type Rejection } from '../rejections.ts';
import type { Clock } from '../../node-common/time.ts';

/**
 * What every route module of the relay is given, built by buildRelay (relay/app.ts). It lives apart from the factory so
 * the routes depend on this type, never on app.ts (issue 28: the relay's rooms, like sandbox/context.ts).
 */
export interface RelayContext {
  clock: Clock;
  log: EventLog;
  metrics: RelayMetrics;
  fleet: Fleet;
  /** issue 27 item 1: what the relay knows about the platform's notifications. */
  notificationHealth: NotificationHealthTracker;
  /** issue 28: the one admin-key check (relay/admin-auth.ts), with its per-source limit. */
  adminGate: AdminGate;
  /** The scope of the request's kiosk key (Authorization: Bearer) with the keys as they are now; null for none. */
  kioskScope(request: FastifyRequest): KioskScope | null;
  /** True once close() began: new streams and lookups are refused. */
  closing(): boolean;
}

/** The first value of a header or query parameter given once or several times. */
export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Counts a refused notification under its reason (relay_notifications_rejected_total). */
export function countRejection(ctx: RelayContext, reason: string): void {
  ctx.metrics.inc('relay_notifications_rejected_total', { reason });
}

/** Counts and answers a refusal from the table of relay/rejections.ts; nothing was stored. */
export function refuseNotification(ctx: RelayContext, reply: FastifyReply, code: Rejection): FastifyReply {
  countRejection(ctx, code);
  return reply.code(REJECTIONS[code].status).send({ error: code, message: REJECTIONS[code].message });
}

/** Answers a refusal of relay/admin-auth.ts. */
export function sendRefusal(reply: FastifyReply, refusal: { status: number; body: object; headers?: Record<string, string> }): FastifyReply {
  if (refusal.headers) void reply.headers(refusal.headers);
  return reply.code(refusal.status).send(refusal.body);
}
