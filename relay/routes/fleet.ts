import type { FastifyInstance, FastifyReply } from 'fastify';
import type { CredentialRule } from '../admin-auth.ts';
import type { RecordResult } from '../fleet-store.ts';
import { FLEET_PAGE_CSP, renderFleetPage } from '../fleet-page.ts';
import { sendRefusal, type RelayContext } from './context.ts';
import { HEARTBEAT_MAX_BYTES, heartbeatSchema } from '../../shared/schemas/heartbeat.ts';

// issue 18 "Heartbeat" and "Fleet page on the relay": kiosks report with their kiosk key; an operator reads the fleet
// with the deployment's admin key, a key of its own that no kiosk holds (relay/fleet.ts keeps and reads the fleet).

/** How /fleet takes the admin key (relay/admin-auth.ts); `page`: /fleet.html, which a browser asks the key for. */
function fleetRule(page: boolean): CredentialRule {
  return {
    basic: page,
    // A kiosk key is a known credential of the wrong kind: forbidden, not unknown, and not a guess.
    kioskKey: { status: 403, body: { error: 'forbidden', message: 'A kiosk key cannot read the fleet: use the admin key.' } },
    closed: { status: 403, body: { error: 'fleet_disabled', message: 'The fleet page needs the relay started with --admin-key.' } },
    unauthorized: {
      status: 401,
      body: { error: 'unauthorized', message: 'The admin key is required: Authorization: Bearer <admin key>.' },
      // The page also takes Basic auth (any user name, the admin key as password), so a browser can ask for it.
      ...(page ? { headers: { 'www-authenticate': 'Basic realm="kiosk fleet", charset="UTF-8"' } } : {}),
    },
  };
}

const FLEET_UNAVAILABLE = { error: 'fleet_unavailable', message: 'The fleet store is unavailable.' };

export function registerFleetRoutes(app: FastifyInstance, ctx: RelayContext): void {
  const { fleet, metrics } = ctx;
  const answer = (reply: FastifyReply, status: number, result: string, message: string) => {
    metrics.inc('relay_heartbeats_total', { result });
    return reply.code(status).send({ error: result, message });
  };

  app.post('/kiosks/heartbeat', async (request, reply) => {
    const scope = ctx.kioskScope(request);
    if (!scope) return answer(reply, 401, 'unauthorized', 'A valid kiosk key is required: Authorization: Bearer <key>.');
    const raw = typeof request.body === 'string' ? request.body : '';
    if (Buffer.byteLength(raw) > HEARTBEAT_MAX_BYTES) return answer(reply, 413, 'too_large', `A heartbeat is at most ${HEARTBEAT_MAX_BYTES} bytes.`);
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return answer(reply, 400, 'invalid_heartbeat', 'The body must be a JSON object.');
    }
    const parsed = heartbeatSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.code === 'unrecognized_keys' ? `unknown field ${issue.keys.join(', ')}` : `${issue?.path.join('.')}: ${issue?.message}`;
      return answer(reply, 400, 'invalid_heartbeat', `Invalid heartbeat: ${where}.`);
    }
    // A key speaks for its own seller only, and a POS-limited key for its POS only (the same scope as its stream).
    if (scope.posIds !== null && !scope.posIds.includes(parsed.data.pos_id)) {
      return answer(reply, 403, 'pos_not_in_key', 'This kiosk key does not serve that POS.');
    }
    let result: RecordResult;
    try {
      result = await fleet.record(scope, parsed.data);
    } catch {
      // Not kept: the kiosk sends its next heartbeat a minute later anyway.
      return answer(reply, 503, 'fleet_unavailable', 'The fleet store is unavailable; nothing was kept.');
    }
    if (result === 'full') return answer(reply, 429, 'too_many_kiosks', `This seller already has ${fleet.caps.perSeller} kiosks reporting.`);
    if (result === 'other_key') return answer(reply, 409, 'kiosk_of_another_key', 'This kiosk id reports with another kiosk key.');
    if (result === 'key_full') return answer(reply, 429, 'too_many_kiosks_for_key', `This kiosk key already has ${fleet.caps.perKey} kiosks reporting.`);
    metrics.inc('relay_heartbeats_total', { result: 'recorded' });
    return reply.code(200).send({ status: 'recorded' });
  });

  app.get('/fleet', async (request, reply) => {
    const admission = ctx.adminGate.check(request.ip, request.headers.authorization, fleetRule(false));
    if (!admission.ok) return sendRefusal(reply, admission.refusal);
    try {
      return reply.code(200).header('cache-control', 'no-store').send(await fleet.view());
    } catch {
      return reply.code(503).send(FLEET_UNAVAILABLE);
    }
  });

  app.get('/fleet.html', async (request, reply) => {
    const admission = ctx.adminGate.check(request.ip, request.headers.authorization, fleetRule(true));
    if (!admission.ok) return sendRefusal(reply, admission.refusal);
    let page: string;
    try {
      page = renderFleetPage(await fleet.view());
    } catch {
      return reply.code(503).send(FLEET_UNAVAILABLE);
    }
    return reply
      .code(200)
      .headers({ 'content-security-policy': FLEET_PAGE_CSP, 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' })
      .type('text/html; charset=utf-8')
      .send(page);
  });
}
