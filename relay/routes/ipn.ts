import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import type { IpnLookups, LookupTicket } from '../ipn-lookups.ts';
import { IPN_LOOKUPS, resourceOwner } from '../ipn.ts';
import { countRejection, refuseNotification, single, type RelayContext } from './context.ts';
import { backoffDelay, retryAfterMs, shouldRetry, type RetryPolicy } from '../../node-common/retry.ts';
import { abortableSleep } from '../../node-common/sleep.ts';
import type { Random } from '../../node-common/time.ts';
import { IPN_TOPICS, type IpnTopic } from '../../shared/schemas/notification.ts';
import type { RelayIpnData } from '../../shared/schemas/relay-event.ts';
import { MAX_RELAY_EVENT_BYTES, relayEventBytes } from '../../shared/relay-event-size.ts';

export interface IpnRouteOptions {
  platformUrl: string;
  /** The token for the lookups; without one every IPN is refused (503 ipn_not_configured). */
  platformToken?: string | undefined;
  /** The seller the platform token names: a fetched resource that names none is that seller's. */
  platformTokenOwner: string | null;
  /** issue 12: bounded concurrency, rate and queue (built by the factory, which checks the limits first). */
  lookups: IpnLookups;
  retry: RetryPolicy;
  fetch: typeof fetch;
  random: Random;
}

/** What the factory needs from the IPN room at shutdown. */
export interface IpnRoute {
  /** Resolves when every lookup in progress has ended (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops the queue and cuts every retry wait short (then idle() resolves once the lookups have ended). */
  stop(): void;
}

/** POST /notifications/ipn: legacy IPN, acknowledged at once and then looked up on the platform (seed 4.7, 6.1). */
export function registerIpnRoute(app: FastifyInstance, ctx: RelayContext, options: IpnRouteOptions): IpnRoute {
  const { clock, metrics } = ctx;
  const inFlight = new Set<Promise<void>>();
  const shutdown = new AbortController();

  app.post('/notifications/ipn', async (request, reply) => {
    metrics.inc('relay_notifications_received_total', { kind: 'ipn' });
    const query = request.query as Record<string, string | string[] | undefined>;
    const topic = single(query.topic) ?? single(query.type);
    const id = single(query.id) ?? single(query['data.id']);
    if (!topic || !(IPN_TOPICS as readonly string[]).includes(topic) || !id || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) return refuseNotification(ctx, reply, 'invalid_ipn');
    if (!options.platformToken) return refuseNotification(ctx, reply, 'ipn_not_configured');
    const requestId = single(request.headers['x-request-id']);
    // issue 12: every IPN costs a platform call, so lookups go through bounded concurrency, rate and queue.
    const queued = options.lookups.offer(`${topic}:${id}`, (ticket) => fetchAndAppend(topic as IpnTopic, id, requestId, ticket));
    if (queued.offer === 'full') {
      reply.header('retry-after', '30');
      return refuseNotification(ctx, reply, 'ipn_busy');
    }
    if (queued.offer === 'duplicate') {
      // The lookup already waiting for this resource has not read it yet: it will read it as it is now.
      metrics.inc('relay_duplicates_total', { reason: 'ipn_lookup_queued' });
      return reply.code(200).send({ status: 'duplicate', reason: 'ipn_lookup_queued' });
    }
    const job = queued.done.finally(() => inFlight.delete(job));
    inFlight.add(job);
    // seed 6.1: acknowledge at once, then fetch the resource (seed 4.7).
    return reply.code(200).send({ status: 'accepted' });
  });

  async function fetchAndAppend(topic: IpnTopic, id: string, requestId: string | undefined, ticket: LookupTicket): Promise<void> {
    const url = options.platformUrl.replace(/\/$/, '') + (IPN_LOOKUPS[topic] as (id: string) => string)(id);
    const retry = options.retry;
    for (let attempt = 0; attempt < retry.maxAttempts && !ctx.closing(); attempt += 1) {
      const release = await ticket.turn();
      if (release === null) return;
      let status: number | null = null;
      let serverWaitMs: number | null = null;
      let resource: Record<string, unknown> | null = null;
      try {
        const response = await options.fetch(url, { headers: { authorization: `Bearer ${options.platformToken}` }, signal: AbortSignal.timeout(10_000) });
        status = response.status;
        // Delta-seconds of up to 6 digits only: the relay's IPN lookups have always ignored the HTTP-date form.
        serverWaitMs = retryAfterMs(response.headers.get('retry-after'), clock.now(), { dates: false, maxDigits: 6 });
        // Read a failed answer to its end so the connection can be reused.
        if (response.ok) resource = (await response.json()) as Record<string, unknown>;
        else await response.arrayBuffer().catch(() => undefined);
      } catch {
        status = null;
        resource = null;
      } finally {
        release();
      }
      if (resource !== null) {
        try {
          await appendIpn(topic, id, requestId, resource);
          return;
        } catch {
          // The IPN was acknowledged already: keep trying to store it, like a failed lookup.
          countRejection(ctx, 'log_unavailable');
        }
      } else {
        metrics.inc('relay_ipn_fetch_failures_total', { topic });
      }
      if (!shouldRetry(status) || attempt + 1 >= retry.maxAttempts || !ticket.retryLater()) return;
      // style guide 8: honour Retry-After (bounded by the policy's cap); the wait ends early when the relay closes.
      // backoffDelay counts failed attempts from 1; `attempt` counts from 0.
      await abortableSleep(Math.min(serverWaitMs ?? backoffDelay(attempt + 1, retry, options.random), retry.maxMs), shutdown.signal);
    }
  }

  /** Appends the fetched resource as an ipn.<topic> event; throws when the log fails. */
  async function appendIpn(topic: IpnTopic, id: string, requestId: string | undefined, resource: Record<string, unknown>): Promise<void> {
    const text = JSON.stringify(resource);
    const receivedAt = clock.now();
    const owner = resourceOwner(resource) ?? options.platformTokenOwner;
    if (!owner) {
      countRejection(ctx, 'ipn_unroutable');
      return;
    }
    const payload = JSON.stringify({ topic, id, request_id: requestId ?? null, resource, relay_received_at: new Date(receivedAt).toISOString() } satisfies RelayIpnData);
    // issue 27 item 5: the IPN was acknowledged already; a resource too large for a kiosk is counted, not stored.
    if (relayEventBytes(payload) > MAX_RELAY_EVENT_BYTES) {
      countRejection(ctx, 'event_too_large');
      return;
    }
    const result = await ctx.log.append({
      // The same resource state fetched twice is one event; a changed resource is a new one.
      requestId: `ipn:${topic}:${id}:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`,
      bodyHash: createHash('sha256').update(text).digest('hex'),
      userId: owner,
      posId: null,
      type: `ipn.${topic}`,
      receivedAt,
      payload,
    });
    if (result.kind === 'appended') metrics.inc('relay_events_appended_total');
    else metrics.inc('relay_duplicates_total', { reason: 'ipn_same_state' });
  }

  const idle = async () => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
  };
  return {
    idle,
    stop() {
      shutdown.abort();
      options.lookups.close();
    },
  };
}
