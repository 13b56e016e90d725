import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { controlBody } from '../http/body.ts';
import { ApiError } from '../domain/errors.ts';
import { isoTimestamp } from '../clock.ts';
import {
  advanceClockRequestSchema,
  authorizationRequestSchema,
  blockSellerRequestSchema,
  createSellerRequestSchema,
  faultRequestSchema,
  forceOrderStatusRequestSchema,
  notificationSettingsSchema,
  payOrderRequestSchema,
  profileRequestSchema,
  simulateNotificationRequestSchema,
} from '../../shared/schemas/sandbox-control.ts';
import { PathPatternError } from '../http/faults.ts';
import { faultErrorSpec } from '../http/fault-codes.ts';
import type { OrderRecord } from '../state.ts';

/** The sandbox's control API (issue 2): what the dashboard, the customer's wallet and the passing of time do. */
export function registerControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // issue 12 (DNS rebinding): each route here answers only a Host that names this sandbox; buildHttp attaches that check
  // to every /sandbox/ route as it is declared (guardControlRoutes, sandbox/http/control-hosts.ts).
  app.post('/sandbox/sellers', async (request, reply) => {
    const body = controlBody(request, createSellerRequestSchema);
    return reply.code(201).send(ctx.sellers.create(body));
  });

  /** Blocks or unblocks a seller: its token requests then get 7.1 forbidden. */
  app.patch('/sandbox/sellers/:userId', async (request, reply) => {
    const { userId } = request.params as { userId: string };
    if (!ctx.state.sellers.has(userId)) throw new ApiError('not_found', [userId], `No seller ${userId}.`);
    const body = controlBody(request, blockSellerRequestSchema);
    ctx.state.setMeta(`blocked:${userId}`, body.blocked);
    return reply.code(200).send({ user_id: userId, blocked: body.blocked });
  });

  /**
   * The control API's order changes: the body first, then one change in a transaction, answered with the order as
   * GET /v1/orders/{id} now shows it. `sweep` delivers what the change set off before answering.
   */
  const orderChange =
    (change: (id: string, request: FastifyRequest) => OrderRecord, { sweep = false } = {}) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const { id } = request.params as { id: string };
      const order = ctx.state.transaction(() => change(id, request));
      if (sweep) await ctx.sweep();
      return reply.code(200).send(ctx.orders.view(order));
    };

  app.post('/sandbox/orders/:id/scan', orderChange((id) => ctx.orders.scan(id)));
  app.post('/sandbox/orders/:id/pay', orderChange((id, request) => ctx.orders.pay(id, controlBody(request, payOrderRequestSchema)), { sweep: true }));

  app.post('/sandbox/clock', async (request, reply) => {
    const body = controlBody(request, advanceClockRequestSchema);
    ctx.clock.advance(body.advance_seconds * 1000);
    ctx.state.setMeta('clock_offset_ms', ctx.clock.offsetMs);
    await ctx.sweep();
    return reply.code(200).send(clockView(ctx));
  });
  app.get('/sandbox/clock', async (_request, reply) => reply.code(200).send(clockView(ctx)));

  app.put('/sandbox/applications/:clientId/notifications', async (request, reply) => {
    const { clientId } = request.params as { clientId: string };
    const application = ctx.state.applications.get(clientId);
    if (!application) throw new ApiError('not_found', [clientId], `No application ${clientId}.`);
    const body = controlBody(request, notificationSettingsSchema);
    // The dashboard setting, unlike a per-object notification_url, may point at loopback: that is where tests listen.
    application.webhook_url = body.webhook_url;
    if (body.ipn_url) application.ipn_url = body.ipn_url;
    else delete application.ipn_url;
    application.webhook_secret ??= ctx.ids.hex(64);
    ctx.state.applications.put(clientId, application);
    return reply.code(200).send({ webhook_secret: application.webhook_secret });
  });

  app.get('/sandbox/deliveries', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const rows = [...ctx.state.deliveries.values()]
      .filter((d) => (!query.data_id || d.data_id === query.data_id) && (!query.kind || d.kind === query.kind))
      .sort((a, b) => a.created_at - b.created_at);
    const attempts = rows.flatMap((d): DeliveryView[] => {
      const base = {
        delivery_id: d.id,
        request_id: d.request_id,
        kind: d.kind,
        topic: d.topic,
        url: d.url,
        body: d.body,
        state: d.state,
      };
      const next = d.next_attempt_at === null ? null : isoTimestamp(d.next_attempt_at);
      if (d.attempts.length === 0) return [{ ...base, attempt: 0, at: null, headers: null, status: null, error: null, next_attempt_at: next }];
      return d.attempts.map((a, i) => ({
        ...base,
        attempt: a.attempt,
        at: isoTimestamp(a.at),
        headers: a.headers,
        status: a.status ?? null,
        error: a.error ?? null,
        next_attempt_at: i === d.attempts.length - 1 ? next : isoTimestamp(d.attempts[i + 1]?.at ?? a.at),
      }));
    });
    return reply.code(200).send({ deliveries: attempts });
  });

  app.post('/sandbox/authorizations', async (request, reply) => {
    const body = controlBody(request, authorizationRequestSchema);
    const result = ctx.state.transaction(() => ctx.oauth.authorize(body));
    return reply.code(201).send(result);
  });

  app.post('/sandbox/faults', async (request, reply) => {
    const body = controlBody(request, faultRequestSchema);
    // issue 26: a forced code must be one the sandbox's tables name (a typo is refused, not injected), and only an
    // error_before fault answers with one.
    if (body.code !== undefined) {
      if (body.kind !== 'error_before') throw new ApiError('property_value', ['code'], 'code applies only to kind error_before.');
      if (!faultErrorSpec(body.code)) throw new ApiError('property_value', ['code'], `code ${body.code} is not an error code the sandbox knows.`);
    }
    let fault;
    try {
      fault = ctx.faults.add(body);
    } catch (error) {
      // issue 12: a pattern that could take too long to match is refused with its own code, naming the problem.
      if (error instanceof PathPatternError) throw new ApiError(error.reason === 'unsafe' ? 'unsafe_path_pattern' : 'property_value', ['path'], error.message);
      throw error;
    }
    return reply
      .code(201)
      .send({ id: fault.id, method: fault.method, path: fault.path, kind: fault.kind, rate: fault.rate, ...(fault.code !== undefined ? { code: fault.code } : {}) });
  });
  app.delete('/sandbox/faults', async (_request, reply) => {
    ctx.faults.clear();
    return reply.code(200).send({ faults: [] });
  });
  app.get('/sandbox/faults', async (_request, reply) =>
    reply.code(200).send({ faults: ctx.faults.list().map(({ pattern: _p, ...rest }) => rest) }),
  );

  // issue 26: the profile (sandbox/profile.ts): `seed`, the interface document's answers, or `documented`, the real
  // platform's documented answers and notifications.
  app.get('/sandbox/profile', async (_request, reply) => reply.code(200).send({ profile: ctx.profile.current }));
  app.put('/sandbox/profile', async (request, reply) => {
    const body = controlBody(request, profileRequestSchema);
    ctx.profile.set(body.profile);
    return reply.code(200).send({ profile: ctx.profile.current });
  });

  // issue 26: force what the Orders API shows as an order's status (e.g. a value no document lists), until the order's
  // next real change or DELETE; answers the order as GET /v1/orders/{id} now shows it.
  app.put(
    '/sandbox/orders/:id/status',
    orderChange((id, request) => {
      const body = controlBody(request, forceOrderStatusRequestSchema);
      return ctx.orders.forceStatus(id, body.status, body.status_detail ?? body.status);
    }),
  );
  app.delete('/sandbox/orders/:id/status', orderChange((id) => ctx.orders.clearForcedStatus(id)));

  // issue 26: the dashboard's "Simulate notification" (platform-facts "Webhooks"). Sent at once and once only; the
  // answer says what the receiver answered, as the dashboard shows it to the seller.
  app.post('/sandbox/applications/:clientId/simulate-notification', async (request, reply) => {
    const { clientId } = request.params as { clientId: string };
    const application = ctx.state.applications.get(clientId);
    if (!application) throw new ApiError('not_found', [clientId], `No application ${clientId}.`);
    if (!application.webhook_url) {
      throw new ApiError('property_value', ['webhook_url'], 'The application has no webhook URL: set it with PUT /sandbox/applications/{client_id}/notifications first.');
    }
    const body = controlBody(request, simulateNotificationRequestSchema, {});
    const deliveryId = ctx.state.transaction(() => ctx.notifier.simulate(application, application.owner_user_id, body));
    await ctx.sweep();
    const delivery = ctx.notifier.delivery(deliveryId);
    const attempt = delivery?.attempts.at(-1);
    return reply.code(201).send({
      delivery_id: deliveryId,
      request_id: delivery?.request_id ?? null,
      url: delivery?.url ?? null,
      status: attempt?.status ?? null,
      error: attempt?.error ?? null,
    });
  });

  app.get('/sandbox/wallet/merchant-key', async (_request, reply) =>
    reply.code(200).send({
      merchant_identifier: ctx.merchantKey.merchantIdentifier,
      public_key: ctx.merchantKey.publicKeySpkiBase64,
      public_key_hash: ctx.merchantKey.publicKeyHash,
      format: 'SPKI DER, base64; curve P-256; EC_v1 (platform-facts: wallet tokenization payload)',
    }),
  );
}

interface DeliveryView {
  delivery_id: string;
  request_id: string;
  kind: string;
  topic: string;
  url: string;
  body: string;
  state: string;
  attempt: number;
  at: string | null;
  headers: Record<string, string> | null;
  status: number | null;
  error: string | null;
  next_attempt_at: string | null;
}

function clockView(ctx: SandboxContext) {
  return { now: isoTimestamp(ctx.clock.now()), offset_seconds: ctx.clock.offsetMs / 1000 };
}
