import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { authenticate } from '../http/auth.ts';
import { parseJson, rawBody } from '../http/body.ts';
import { ApiError } from '../domain/errors.ts';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Body } from '../domain/stores.ts';
import { StoresPosError } from '../domain/errors.ts';
import { qrPng, qrTemplatePdf, qrTemplatePng } from '../domain/qr-files.ts';
import type { AccessTokenRecord, PosRecord, SellerRecord } from '../state.ts';
import { storesPosErrorBody } from '../../shared/stores-pos-errors.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * platform-facts "Stores and points of sale": the Stores and POS API, and the files behind a POS's `qr` links. Its
 * errors use the older APIs' body {message, error, status, cause[]} (platform-facts "Error bodies"), so these routes
 * live in a scope of their own with that error handler; the Orders API keeps its shape.
 */
export function registerStoresPosRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  void app.register(async (scope) => {
    scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
      if (error instanceof StoresPosError) return reply.code(error.status).send(storesPosErrorBody(error.code, error.message));
      // authenticate()'s refusals (401, or 400 for a token in the query string), in this API's shape.
      if (error instanceof ApiError) return reply.code(error.status).send(storesPosErrorBody(error.code === 'unauthorized' ? 'unauthorized' : 'bad_request', error.message));
      if (error.statusCode === 413) return reply.code(413).send(storesPosErrorBody('payload_too_large'));
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) return reply.code(400).send(storesPosErrorBody('bad_request', error.message));
      request.log.error(error);
      return reply.code(500).send(storesPosErrorBody('internal_error'));
    });

    scope.post('/users/:userId/stores', async (request, reply) => {
      const token = ownUser(request, ctx);
      const store = ctx.state.transaction(() => ctx.stores.create(token.user_id, body(request)));
      return reply.code(201).send(ctx.stores.render(store));
    });
    scope.get('/users/:userId/stores/search', async (request, reply) => {
      const token = ownUser(request, ctx);
      const query = queryOf(request, ['external_id']);
      const { offset, limit } = paging(request);
      const page = ctx.stores.search(token.user_id, query, offset, limit);
      return reply.code(200).send({ paging: page.paging, results: page.results.map((s) => ctx.stores.render(s)) });
    });
    scope.get('/stores/:id', async (request, reply) => {
      const token = authenticate(request, ctx.oauth);
      return reply.code(200).send(ctx.stores.render(ctx.stores.find(token.user_id, param(request, 'id'))));
    });
    scope.put('/users/:userId/stores/:id', async (request, reply) => {
      const token = ownUser(request, ctx);
      const store = ctx.state.transaction(() => ctx.stores.update(token.user_id, param(request, 'id'), body(request)));
      return reply.code(200).send(ctx.stores.render(store));
    });
    scope.delete('/users/:userId/stores/:id', async (request, reply) => {
      const token = ownUser(request, ctx);
      ctx.state.transaction(() => ctx.stores.remove(token.user_id, param(request, 'id')));
      return reply.code(204).send();
    });

    scope.post('/pos', async (request, reply) => {
      const seller = sellerOf(request, ctx);
      const pos = ctx.state.transaction(() => ctx.pos.create(seller, body(request)));
      return reply.code(201).send(ctx.pos.render(pos, origin(request)));
    });
    scope.get('/pos', async (request, reply) => {
      const token = authenticate(request, ctx.oauth);
      const query = queryOf(request, ['external_id', 'store_id', 'external_store_id']);
      const { offset, limit } = paging(request);
      const page = ctx.pos.search(token.user_id, query, offset, limit);
      const base = origin(request);
      return reply.code(200).send({ paging: page.paging, results: page.results.map((p) => ctx.pos.render(p, base)) });
    });
    scope.get('/pos/:id', async (request, reply) => {
      const token = authenticate(request, ctx.oauth);
      return reply.code(200).send(ctx.pos.render(ctx.pos.find(token.user_id, param(request, 'id')), origin(request)));
    });
    scope.put('/pos/:id', async (request, reply) => {
      const seller = sellerOf(request, ctx);
      const pos = ctx.state.transaction(() => ctx.pos.update(seller, param(request, 'id'), body(request)));
      return reply.code(200).send(ctx.pos.render(pos, origin(request)));
    });
    scope.delete('/pos/:id', async (request, reply) => {
      const token = authenticate(request, ctx.oauth);
      ctx.state.transaction(() => ctx.pos.remove(token.user_id, param(request, 'id')));
      return reply.code(204).send();
    });

    // The qr links of a POS answer (platform-facts): public like the platform's image links, found by the QR's uuid.
    scope.get('/instore/qr/:file', async (request, reply) => {
      const match = /^(.+)\.png$/.exec(param(request, 'file'));
      const pos = qrPos(ctx, match?.[1] ?? '');
      return reply.code(200).type('image/png').header('cache-control', 'public, max-age=3600').send(await qrPng(ctx.pos.staticQr(pos)));
    });
    scope.get('/instore/qr/:uuid/template.pdf', async (request, reply) => {
      const pos = qrPos(ctx, param(request, 'uuid'));
      const store = ctx.state.stores.get(pos.store_id);
      const pdf = qrTemplatePdf({ payload: ctx.pos.staticQr(pos), storeName: store?.name ?? '', posName: pos.name });
      return reply.code(200).type('application/pdf').header('content-disposition', `inline; filename="qr-${pos.external_id}.pdf"`).send(pdf);
    });
    scope.get('/instore/qr/:uuid/template.png', async (request, reply) => {
      const pos = qrPos(ctx, param(request, 'uuid'));
      const store = ctx.state.stores.get(pos.store_id);
      const png = qrTemplatePng({ payload: ctx.pos.staticQr(pos), storeName: store?.name ?? '', posName: pos.name });
      return reply.code(200).type('image/png').header('content-disposition', `inline; filename="qr-${pos.external_id}.png"`).send(png);
    });
  });
}

/** The POS whose static QR is `uuid`; 404 not_found for any other text. */
function qrPos(ctx: SandboxContext, uuid: string): PosRecord {
  const pos = UUID.test(uuid) ? ctx.pos.findByQr(uuid) : undefined;
  if (!pos) throw new StoresPosError('not_found', 'No point of sale has this QR.');
  return pos;
}

/** platform-facts: the user_id in the path must be the token's user, else 403. */
function ownUser(request: FastifyRequest, ctx: SandboxContext): AccessTokenRecord {
  const token = authenticate(request, ctx.oauth);
  const userId = param(request, 'userId');
  if (!/^[0-9]{1,18}$/.test(userId)) throw new StoresPosError('INVALID_USER_ID', `User id ${userId.slice(0, 64)} is not numeric.`);
  if (userId !== token.user_id) throw new StoresPosError('forbidden', `The access token belongs to user ${token.user_id}, not ${userId}.`);
  return token;
}

function sellerOf(request: FastifyRequest, ctx: SandboxContext): SellerRecord {
  const token = authenticate(request, ctx.oauth);
  const seller = ctx.state.sellers.get(token.user_id);
  if (!seller) throw new StoresPosError('unauthorized', 'The token belongs to no seller.');
  return seller;
}

function param(request: FastifyRequest, name: string): string {
  return (request.params as Record<string, string>)[name] ?? '';
}

/** The JSON body; an empty one reads as undefined (MISSING_BODY in the domain), malformed JSON is bad_request. */
function body(request: FastifyRequest): Body | undefined {
  const parsed = parseJson(rawBody(request));
  if (!parsed.ok) throw new StoresPosError('bad_request', parsed.reason);
  return parsed.value as Body | undefined;
}

/** The search filters named, each given at most once. */
function queryOf<K extends string>(request: FastifyRequest, names: readonly K[]): Partial<Record<K, string>> {
  const query = request.query as Record<string, unknown>;
  const out: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new StoresPosError('bad_request', `${name} may be given once.`);
    out[name] = value;
  }
  return out;
}

/** Decision (sandbox/README.md): offset ≥ 0, limit 1–100 (default 50); anything else is bad_request. */
function paging(request: FastifyRequest): { offset: number; limit: number } {
  const { offset, limit } = request.query as Record<string, unknown>;
  const number = (value: unknown, name: string, fallback: number, min: number, max: number): number => {
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !/^[0-9]{1,9}$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new StoresPosError('bad_request', `${name} must be a whole number from ${min} to ${max}.`);
    }
    return Number(value);
  };
  return { offset: number(offset, 'offset', 0, 0, 1e9), limit: number(limit, 'limit', DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT) };
}

/** The sandbox's own origin as the client addressed it, so the qr links work from wherever the client is. */
function origin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
