import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../app.ts';
import { parseJson, rawBody } from '../http/body.ts';
import { OAuthError } from '../http/replies.ts';
import { tokenRequestSchema } from '../../shared/schemas/oauth.ts';

/** seed 4.1: POST /oauth/token, JSON or form-encoded. The Authorization header the SDK sends is ignored (platform-facts). */
export function registerOAuthRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post('/oauth/token', async (request, reply) => {
    const fields = tokenFields(request);
    const parsed = tokenRequestSchema.safeParse(fields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const what = issue?.code === 'unrecognized_keys' ? `unsupported parameter ${issue.keys.join(', ')}` : `${issue?.path.join('.') || 'body'}: ${issue?.message}`;
      throw new OAuthError('invalid_request', `The request is malformed: ${what}.`);
    }
    const token = ctx.state.transaction(() => ctx.oauth.issue(parsed.data));
    return reply.code(200).send(token);
  });
}

function tokenFields(request: FastifyRequest): unknown {
  const text = rawBody(request);
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded')) {
    const params = new URLSearchParams(text);
    const out: Record<string, string> = {};
    for (const [key, value] of params) {
      // seed 7.1 invalid_request: "duplicated value".
      if (Object.hasOwn(out, key)) throw new OAuthError('invalid_request', `Parameter ${key} is duplicated.`);
      out[key] = value;
    }
    return out;
  }
  const parsed = parseJson(text);
  if (!parsed.ok) throw new OAuthError('invalid_request', 'The body is not valid JSON.');
  if (parsed.value === undefined) throw new OAuthError('invalid_request', 'The body is empty; grant_type, client_id and client_secret are required.');
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw new OAuthError('invalid_request', 'The body must be a JSON object.');
  }
  return parsed.value;
}
