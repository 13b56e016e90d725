import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { escapeHtml, page } from '../http/html.ts';
import { OAuthError } from '../domain/errors.ts';
import { rawBody } from '../http/body.ts';
import { DEFAULT_SCOPE, parseScope, redirectUriProblem } from '../domain/oauth.ts';

type Params = Record<string, string | undefined>;

/** The parameters the page carries from the GET into its two forms (and so into POST /authorization/decision). */
const CARRIED = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope'] as const;

/**
 * The consent page of the authorization_code flow (seed 5.3, platform-facts "OAuth"): GET /authorization?client_id
 * &response_type=code&redirect_uri&state[&code_challenge&code_challenge_method&scope]. Other parameters (the SDK adds
 * platform_id=mp) are ignored. Allow redirects (302) to redirect_uri?code=…&state=…; Deny redirects with
 * error=access_denied&state=… (RFC 6749 4.1.2.1). A request the page cannot trust (unknown client_id, response_type
 * other than code, a redirect_uri that is not an absolute http(s) URL, a bad PKCE or scope parameter, a repeated
 * parameter) is answered here with a 400 page and never redirected, so the page is no open redirector.
 *
 * Decisions (the document has no consent page): the person who consents is the application's owner (the sandbox has
 * no login); the code is the one of POST /sandbox/authorizations, bound to client, redirect_uri and PKCE challenge.
 */
export function registerAuthorizationPage(app: FastifyInstance, ctx: SandboxContext): void {
  const problem = (reply: FastifyReply, text: string): FastifyReply =>
    secure(reply).code(400).send(page('Authorization error', `<h1>Cannot authorize</h1><p class="muted">${escapeHtml(text)}</p>`));

  const check = (q: Params): string | null => {
    if (!q.client_id || !ctx.state.applications.has(q.client_id)) return 'Unknown client_id.';
    if (q.response_type !== 'code') return 'response_type must be code.';
    const redirect = redirectUriProblem(q.redirect_uri);
    if (redirect) return redirect;
    if (q.code_challenge !== undefined && !/^[A-Za-z0-9._~-]{1,256}$/.test(q.code_challenge)) {
      return 'code_challenge must be 1 to 256 characters of A-Z, a-z, 0-9, ".", "_", "~" and "-".';
    }
    if (q.code_challenge_method !== undefined) {
      if (!['S256', 'plain'].includes(q.code_challenge_method)) return 'code_challenge_method must be S256 or plain.';
      if (q.code_challenge === undefined) return 'code_challenge_method needs a code_challenge.';
    }
    if (q.scope !== undefined) {
      try {
        parseScope(q.scope);
      } catch (e) {
        if (e instanceof OAuthError) return e.message;
        throw e;
      }
    }
    return null;
  };

  app.get('/authorization', async (request, reply) => {
    const q = singleParams(new URLSearchParams(queryText(request.url)));
    if (typeof q === 'string') return problem(reply, q);
    const error = check(q);
    if (error) return problem(reply, error);
    const application = ctx.state.applications.get(q.client_id as string);
    const owner = application ? ctx.state.sellers.get(application.owner_user_id) : undefined;
    const hidden = CARRIED.filter((k) => q[k] !== undefined)
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k] as string)}">`)
      .join('');
    const scope = q.scope ?? DEFAULT_SCOPE;
    return secure(reply)
      .code(200)
      .send(
        page(
          'Authorize application',
          `<span class="badge">Sandbox</span><h1>Allow access to your account?</h1>
           <p class="muted">Application ${escapeHtml(q.client_id as string)} asks to create and refund QR orders for ${escapeHtml(owner?.name ?? 'your store')}.</p>
           <p class="muted">Permissions: ${escapeHtml(scope)}. You will be sent back to ${escapeHtml(new URL(q.redirect_uri as string).origin)}.</p>
           <form method="post" action="/authorization/decision">${hidden}<input type="hidden" name="decision" value="approve"><button class="approve" type="submit">Allow</button></form>
           <form method="post" action="/authorization/decision">${hidden}<input type="hidden" name="decision" value="deny"><button class="reject" type="submit">Deny</button></form>`,
        ),
      );
  });

  /** The page's forms post here, form-encoded. The same checks run again: the form fields are the client's to change. */
  app.post('/authorization/decision', async (request, reply) => {
    const form = singleParams(new URLSearchParams(formText(request)));
    if (typeof form === 'string') return problem(reply, form);
    const error = check({ ...form, response_type: 'code' });
    if (error) return problem(reply, error);
    if (form.decision !== 'approve' && form.decision !== 'deny') return problem(reply, 'decision must be approve or deny.');
    const target = new URL(form.redirect_uri as string);
    if (form.decision === 'deny') {
      target.searchParams.set('error', 'access_denied');
    } else {
      try {
        const { code } = ctx.state.transaction(() =>
          ctx.oauth.authorize({
            client_id: form.client_id as string,
            redirect_uri: form.redirect_uri as string,
            ...(form.scope !== undefined ? { scope: form.scope } : {}),
            ...(form.code_challenge !== undefined ? { code_challenge: form.code_challenge } : {}),
            ...(form.code_challenge_method === 'S256' || form.code_challenge_method === 'plain' ? { code_challenge_method: form.code_challenge_method } : {}),
          }),
        );
        target.searchParams.set('code', code);
      } catch (e) {
        if (e instanceof OAuthError) return problem(reply, e.message);
        throw e;
      }
    }
    // RFC 6749 4.1.2: state comes back exactly as sent (also on deny), and only when it was sent.
    if (form.state !== undefined) target.searchParams.set('state', form.state);
    return secure(reply).redirect(target.toString(), 302);
  });
}

/** RFC 6749 3.1: a parameter may appear at most once. Returns the problem text for a repeated one. */
function singleParams(params: URLSearchParams): Params | string {
  const out: Params = {};
  for (const [key, value] of params) {
    if (Object.hasOwn(out, key)) return `Parameter ${key} is repeated.`;
    out[key] = value;
  }
  return out;
}

/** Everything after the first "?" (a later "?" belongs to a value). */
function queryText(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
}

function formText(request: FastifyRequest): string {
  const type = String(request.headers['content-type'] ?? '').toLowerCase();
  return type.startsWith('application/x-www-form-urlencoded') ? rawBody(request) : '';
}

/** HTML that grants access: never cached, never framed (clickjacking). */
function secure(reply: FastifyReply): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "frame-ancestors 'none'");
}
