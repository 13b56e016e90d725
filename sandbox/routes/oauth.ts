import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { parseJson, rawBody } from '../http/body.ts';
import { OAuthError } from '../domain/errors.ts';
import { tokenRequestSchema } from '../../shared/schemas/oauth.ts';

/**
 * seed 4.1: POST /oauth/token. The body is JSON (seed 2.1 / 4) or form-encoded (as OAuth clients commonly send it).
 * The Authorization header the SDK sends, and its X-Product-Id / X-Tracking-Id / User-Agent, are ignored
 * (platform-facts "OAuth"). Errors use the body {error, message, status, cause} (platform-facts "Error bodies").
 */
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
    // RFC 6749 5.1: a response carrying tokens is never cached.
    return reply.code(200).header('cache-control', 'no-store').header('pragma', 'no-cache').send(token);
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
  // Anything that is not a form is read as JSON (seed 4: "All bodies are JSON"), whatever its Content-Type says.
  const parsed = parseJson(text);
  if (!parsed.ok) throw new OAuthError('invalid_request', parsed.reason);
  if (parsed.value === undefined) throw new OAuthError('invalid_request', 'The body is empty; grant_type, client_id and client_secret are required.');
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    throw new OAuthError('invalid_request', 'The body must be a JSON object.');
  }
  // seed 7.1 invalid_request "duplicated value", as for a form: JSON.parse would silently keep the last one.
  const duplicate = duplicatedTopLevelKey(text);
  if (duplicate !== null) throw new OAuthError('invalid_request', `Parameter ${duplicate} is duplicated.`);
  return parsed.value;
}

/** The first member name that appears twice in the top-level object of valid JSON text, or null. */
export function duplicatedTopLevelKey(text: string): string | null {
  const seen = new Set<string>();
  let depth = 0;
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (depth === 1 && expectKey) {
        const key = JSON.parse(text.slice(i, end + 1)) as string;
        if (seen.has(key)) return key;
        seen.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === '{' || c === '[') {
      depth += 1;
      expectKey = depth === 1 && c === '{';
    } else if (c === '}' || c === ']') {
      depth -= 1;
    } else if (c === ',' && depth === 1) {
      expectKey = true;
    }
  }
  return null;
}
