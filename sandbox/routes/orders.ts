import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { authenticate, idempotencyKey } from '../http/auth.ts';
import { canonicalJson, parseJson, rawBody, schemaError } from '../http/body.ts';
import { ApiError } from '../http/replies.ts';
import { replayOrRefuse, sendJsonText } from '../http/idempotency-reply.ts';
import { IdempotencyStore } from '../domain/idempotency.ts';
import type { AccessTokenRecord } from '../state.ts';
import { ORDER_ID_PATTERN } from '../../shared/schemas/common.ts';
import { createOrderRequestSchema, refundOrderRequestSchema } from '../../shared/schemas/order.ts';

/** seed 4.3–4.6: the Orders API. */
export function registerOrderRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/v1/orders', async (request, reply) =>
    idempotent(ctx, request, reply, null, (token, body) => {
      // seed 7.3: a seller of an unsupported country may exist, but cannot create orders.
      const seller = ctx.state.sellers.get(token.user_id);
      if (!seller?.currency) throw new ApiError('unsupported_site', [seller?.country_code ?? ''], `Orders are not supported in ${seller?.country_code}.`);
      const parsed = createOrderRequestSchema.safeParse(body);
      if (!parsed.success) throw schemaError(parsed.error, body);
      const order = ctx.orders.create(token, parsed.data);
      // createdOrderId: the idempotency store keeps the order id, not this answer (issue 14; renderAsCreated rebuilds it).
      return { status: 201, body: ctx.orders.render(order), createdOrderId: order.id };
    }),
  );

  app.get('/v1/orders/:id', async (request, reply) => {
    const token = authenticate(request, ctx.oauth);
    const id = orderIdParam(request);
    const order = ctx.state.transaction(() => ctx.orders.find(token, id));
    return reply.code(200).send(ctx.orders.render(order));
  });

  app.post('/v1/orders/:id/cancel', async (request, reply) =>
    idempotent(ctx, request, reply, (id) => `/v1/orders/${id}/cancel`, (token, _body, id) => {
      // seed 4.5: no body. An empty JSON object is tolerated; anything else names what is not supported.
      const order = ctx.orders.cancel(token, id);
      return { status: 200, body: ctx.orders.render(order) };
    }, { bodyless: true }),
  );

  app.post('/v1/orders/:id/refund', async (request, reply) =>
    idempotent(ctx, request, reply, (id) => `/v1/orders/${id}/refund`, (token, body, id) => {
      // seed 4.6: no body (or an empty object) is a full refund; transactions[] a partial one.
      const parsed = refundOrderRequestSchema.safeParse(body ?? {});
      if (!parsed.success) throw schemaError(parsed.error, body);
      const { order, refunds } = ctx.orders.refund(token, id, parsed.data);
      return { status: 201, body: ctx.orders.renderRefundResponse(order, refunds) };
    }),
  );
}

/** seed 7.4 / 7.5: order_id must be ORD followed by 26 characters before anything is looked up. */
function orderIdParam(request: FastifyRequest): string {
  const { id } = request.params as { id: string };
  if (!ORDER_ID_PATTERN.test(id)) throw new ApiError('invalid_path_param', ['order_id'], `order_id ${id.slice(0, 64)} is not ORD followed by 26 alphanumeric characters.`);
  return id;
}

type Operation = (token: AccessTokenRecord, body: unknown, orderId: string) => { status: number; body: unknown; createdOrderId?: string };

/**
 * The write path shared by create, cancel and refund: authenticate, check the order id of the path, require the key,
 * replay or refuse a reused key, then run the operation and remember its response in the same transaction, so a lost
 * response can be recovered by retrying with the same key (seed 4.3; style guide 9). The checks run in the same order
 * as GET's (token, then path, then headers and body), so one request gets one answer whichever route it hits.
 */
async function idempotent(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  orderPath: ((orderId: string) => string) | null,
  operation: Operation,
  options: { bodyless?: boolean } = {},
): Promise<FastifyReply> {
  const token = authenticate(request, ctx.oauth);
  const orderId = orderPath ? orderIdParam(request) : '';
  const path = orderPath ? orderPath(orderId) : '/v1/orders';
  const key = idempotencyKey(request);
  const text = rawBody(request);
  const parsed = parseJson(text);
  // Cancel and refund take no body: an absent body and {} are the same request (an SDK may send either on a retry).
  const value = parsed.ok && !(orderPath && isEmptyObject(parsed.value)) ? parsed.value : undefined;
  const fingerprint = IdempotencyStore.fingerprint(request.method, path, parsed.ok ? canonicalJson(value) : text);
  const replayed = replayOrRefuse(ctx.idempotency, reply, token.user_id, key, fingerprint);
  if (replayed) return replayed;
  if (!parsed.ok) throw new ApiError('property_type', ['body'], parsed.reason);
  if (options.bodyless && value !== undefined) {
    const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : ['body'];
    throw new ApiError('unsupported_properties', fields, 'This request takes no body.');
  }
  const result = ctx.state.transaction(() => {
    const outcome = operation(token, value, orderId);
    return { status: outcome.status, json: ctx.idempotency.remember(token.user_id, key, fingerprint, outcome.status, outcome.body, outcome.createdOrderId) };
  });
  return sendJsonText(reply, result.status, result.json);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
