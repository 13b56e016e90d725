import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { authenticate, idempotencyKey } from '../http/auth.ts';
import { canonicalJson, parseJson, rawBody, schemaError } from '../http/body.ts';
import { ApiError } from '../domain/errors.ts';
import { replayOrRefuse, sendJsonText } from '../http/idempotency-reply.ts';
import { canonicalPlainCreateOrderBody, plainCreateOrderBody } from '../http/create-order-body.ts';
import { IdempotencyStore } from '../domain/idempotency.ts';
import { renderRefundResponse } from '../domain/order-views.ts';
import type { AccessTokenRecord } from '../state.ts';
import { ORDER_ID_PATTERN } from '../../shared/schemas/common.ts';
import { createOrderRequestSchema, refundOrderRequestSchema, type CreateOrderRequest } from '../../shared/schemas/order.ts';

/** seed 4.3–4.6: the Orders API. */
export function registerOrderRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // The write routes are plain functions, not async ones: nothing in them waits, and an async handler costs two promises
  // and a turn of the microtask queue per request (issue 14 throughput). A throw reaches the error handler either way.
  app.post('/v1/orders', (request, reply) => {
    idempotent(ctx, request, reply, null, (token, body, _orderId, plain) => {
      // seed 7.3: a seller of an unsupported country may exist, but cannot create orders.
      const seller = ctx.state.sellers.get(token.user_id);
      if (!seller?.currency) throw new ApiError('unsupported_site', [seller?.country_code ?? ''], `Orders are not supported in ${seller?.country_code}.`);
      // issue 14: the usual body was recognised without zod (idempotent, plainCreate); any other goes through the schema
      // and its error answers.
      let input = plain;
      if (input === null) {
        const parsed = createOrderRequestSchema.safeParse(body);
        if (!parsed.success) throw schemaError(parsed.error, body);
        input = parsed.data;
      }
      const order = ctx.orders.create(token, input);
      // createdOrderId: the idempotency store keeps the order id, not this answer (issue 14; renderAsCreated rebuilds it).
      // The answer is written as JSON text once, and that text is sent (issue 14: no object tree, no stringify).
      return { status: 201, json: ctx.orders.viewJson(order), createdOrderId: order.id };
    }, CREATE_OPTIONS);
  });

  app.get('/v1/orders/:id', async (request, reply) => {
    const token = authenticate(request, ctx.oauth);
    const id = orderIdParam(request);
    // issue 14 idle: a transaction only when the read advances the order (OrderService.read).
    const order = ctx.orders.read(token, id);
    return reply.code(200).send(ctx.orders.view(order));
  });

  app.post('/v1/orders/:id/cancel', (request, reply) => {
    idempotent(ctx, request, reply, (id) => `/v1/orders/${id}/cancel`, (token, _body, id) => {
      // seed 4.5: no body. An empty JSON object is tolerated; anything else names what is not supported.
      const order = ctx.orders.cancel(token, id);
      return { status: 200, body: ctx.orders.view(order) };
    }, { bodyless: true });
  });

  app.post('/v1/orders/:id/refund', (request, reply) => {
    idempotent(ctx, request, reply, (id) => `/v1/orders/${id}/refund`, (token, body, id) => {
      // seed 4.6: no body (or an empty object) is a full refund; transactions[] a partial one.
      const parsed = refundOrderRequestSchema.safeParse(body ?? {});
      if (!parsed.success) throw schemaError(parsed.error, body);
      const { order, refunds } = ctx.orders.refund(token, id, parsed.data);
      return { status: 201, body: renderRefundResponse(order, refunds) };
    });
  });
}

/** POST /v1/orders's options for idempotent(), made once rather than per request. */
const CREATE_OPTIONS = { plainCreate: true };

/**
 * issue 26: the documented profile's TEST order ids, ORDTST + 26 (32 characters, platform-facts "Identifiers and
 * formats"). Accepted in every profile, so an order made in one profile can be read after a switch to the other.
 */
const DOCUMENTED_TEST_ORDER_ID = /^ORDTST[A-Z0-9]{26}$/;

/** seed 7.4 / 7.5: order_id must be ORD followed by 26 characters before anything is looked up. */
function orderIdParam(request: FastifyRequest): string {
  const { id } = request.params as { id: string };
  if (!ORDER_ID_PATTERN.test(id) && !DOCUMENTED_TEST_ORDER_ID.test(id)) throw new ApiError('invalid_path_param', ['order_id'], `order_id ${id.slice(0, 64)} is not ORD followed by 26 alphanumeric characters.`);
  return id;
}

/** An operation's answer: a value to remember and send, or a new order's answer already written as JSON text. */
type Outcome = { status: number; body: unknown } | { status: number; json: string; createdOrderId: string };
type Operation = (token: AccessTokenRecord, body: unknown, orderId: string, plain: CreateOrderRequest | null) => Outcome;

/**
 * The write path shared by create, cancel and refund: authenticate, check the order id of the path, require the key,
 * replay or refuse a reused key, then run the operation and remember its response in the same transaction, so a lost
 * response can be recovered by retrying with the same key (seed 4.3; style guide 9). The checks run in the same order
 * as GET's (token, then path, then headers and body), so one request gets one answer whichever route it hits.
 */
function idempotent(
  ctx: SandboxContext,
  request: FastifyRequest,
  reply: FastifyReply,
  orderPath: ((orderId: string) => string) | null,
  operation: Operation,
  options: { bodyless?: boolean; plainCreate?: boolean } = {},
): FastifyReply {
  const token = authenticate(request, ctx.oauth);
  const orderId = orderPath ? orderIdParam(request) : '';
  const path = orderPath ? orderPath(orderId) : '/v1/orders';
  const key = idempotencyKey(request);
  const text = rawBody(request);
  const parsed = parseJson(text);
  // Cancel and refund take no body: an absent body and {} are the same request (an SDK may send either on a retry).
  const value = parsed.ok && !(orderPath && isEmptyObject(parsed.value)) ? parsed.value : undefined;
  // plainCreate (POST /v1/orders, issue 14 round 3): the usual create body is recognised once, here, and its canonical
  // text written from its checked fields instead of by the general canonicalJson; the operation gets it as `plain`.
  const plain = options.plainCreate && parsed.ok ? plainCreateOrderBody(value) : null;
  const canonical = plain !== null ? canonicalPlainCreateOrderBody(plain) : parsed.ok ? canonicalJson(value) : text;
  const fingerprint = IdempotencyStore.fingerprint(request.method, path, canonical);
  const replayed = replayOrRefuse(ctx.idempotency, reply, token.user_id, key, fingerprint);
  if (replayed) return replayed;
  if (!parsed.ok) throw new ApiError('property_type', ['body'], parsed.reason);
  if (options.bodyless && value !== undefined) {
    const fields = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : ['body'];
    throw new ApiError('unsupported_properties', fields, 'This request takes no body.');
  }
  const result = ctx.state.transaction(() => {
    const outcome = operation(token, value, orderId, plain);
    if ('json' in outcome) {
      ctx.idempotency.rememberCreated(token.user_id, key, fingerprint, outcome.status, outcome.createdOrderId);
      return { status: outcome.status, json: outcome.json };
    }
    return { status: outcome.status, json: ctx.idempotency.remember(token.user_id, key, fingerprint, outcome.status, outcome.body) };
  });
  return sendJsonText(reply, result.status, result.json);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
