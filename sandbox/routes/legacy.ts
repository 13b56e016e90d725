import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { authenticate, idempotencyKey } from '../http/auth.ts';
import { canonicalJson, controlBody, parseJson, rawBody, schemaError } from '../http/body.ts';
import { ApiError } from '../domain/errors.ts';
import { ORDER_ERRORS } from '../../shared/errors.ts';
import { platformErrorBody } from '../../shared/platform-error-body.ts';
import { replayOrRefuse, sendJsonText } from '../http/idempotency-reply.ts';
import { IdempotencyStore } from '../domain/idempotency.ts';
import { chargebackRequestSchema, createPaymentIntentRequestSchema, createPaymentRequestSchema } from '../domain/legacy-schemas.ts';

const PAYMENTS_PATH = '/v1/payments';

/** seed 4.7 / 4.8: legacy payments and the IPN lookup endpoints, plus the control API that makes their events. */
export function registerLegacyRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // platform-facts "Error bodies": the legacy payments API and its lookups answer errors in the real platform's older
  // shape {message, error, status, cause[]}, which the official SDKs read; these routes live in a scope of their own
  // with that error handler, and the Orders API keeps its shape. The control routes below stay in the control API's.
  void app.register(async (scope) => {
    scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
      if (error instanceof ApiError) return reply.code(error.status).send(platformErrorBody(error.code, error.status, error.message, error.details));
      if (error.statusCode === 413) return reply.code(413).send(platformErrorBody('payload_too_large', 413, ORDER_ERRORS.payload_too_large.message));
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return reply.code(400).send(platformErrorBody('bad_request', 400, error.message));
      request.log.error(error);
      return reply.code(500).send(platformErrorBody('generic', 500, ORDER_ERRORS.generic.message));
    });

    /**
     * seed 4.8. The official SDK sends X-Idempotency-Key on every POST, so the key is required as on the Orders API
     * (seed 4.3): the same key and body replay the first response, another body is idempotency_key_already_used.
     */
    scope.post(PAYMENTS_PATH, async (request, reply) => {
      const token = authenticate(request, ctx.oauth);
      const key = idempotencyKey(request);
      const text = rawBody(request);
      const parsed = parseJson(text);
      const fingerprint = IdempotencyStore.fingerprint(request.method, PAYMENTS_PATH, parsed.ok ? canonicalJson(parsed.value) : text);
      const replayed = replayOrRefuse(ctx.idempotency, reply, token.user_id, key, fingerprint);
      if (replayed) return replayed;
      if (!parsed.ok) throw new ApiError('property_type', ['body'], parsed.reason);
      const body = createPaymentRequestSchema.safeParse(parsed.value);
      if (!body.success) throw schemaError(body.error, parsed.value);
      // The remembered JSON text is the copy: the stored document changes later (refunds, chargebacks), the remembered
      // response must not (seed 4.3).
      const json = ctx.state.transaction(() => ctx.idempotency.remember(token.user_id, key, fingerprint, 201, ctx.legacy.createPayment(token, body.data)));
      return sendJsonText(reply, 201, json);
    });

    // seed 4.7: what an IPN receiver calls after acknowledging (platform-facts "IPN"); each reads the token's seller's.
    const lookups = ctx.legacyLookups;
    const routes: Array<[string, (userId: string, id: string) => Record<string, unknown>]> = [
      ['/v1/payments/:id', (userId, id) => lookups.findPayment(userId, id)],
      ['/merchant_orders/:id', (userId, id) => lookups.findMerchantOrder(userId, id)],
      ['/v1/chargebacks/:id', (userId, id) => lookups.findChargeback(userId, id)],
      ['/point/integration-api/payment-intents/:id', (userId, id) => lookups.findPaymentIntent(userId, id)],
    ];
    for (const [path, find] of routes) {
      scope.get(path, async (request, reply) => {
        const token = authenticate(request, ctx.oauth);
        return reply.code(200).send(find(token.user_id, param(request)));
      });
    }
  });

  /** Control API: the payer's bank opens a chargeback on a payment (IPN topics chargebacks and payment). */
  app.post('/sandbox/payments/:id/chargeback', async (request, reply) => {
    const body = controlBody(request, chargebackRequestSchema, {});
    const chargeback = ctx.state.transaction(() => ctx.legacy.openChargeback(param(request), body));
    await ctx.sweep();
    return reply.code(201).send(chargeback);
  });

  /** Control API: a payment attempt on a point device ends (IPN topic point_integration_ipn). */
  app.post('/sandbox/point/payment-intents', async (request, reply) => {
    const body = controlBody(request, createPaymentIntentRequestSchema, {});
    const intent = ctx.state.transaction(() => ctx.legacy.createPaymentIntent(body));
    await ctx.sweep();
    return reply.code(201).send(intent);
  });
}

function param(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}
