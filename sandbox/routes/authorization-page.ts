import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SandboxContext } from '../app.ts';
import { escapeHtml, page } from '../http/html.ts';
import { OAuthError } from '../http/replies.ts';

/**
 * The consent page of the authorization_code flow (platform-facts "OAuth"): GET /authorization?client_id&response_type=code
 * &redirect_uri&state[&code_challenge&code_challenge_method]. Approve redirects to redirect_uri?code=…&state=…; Deny
 * redirects with error=access_denied. Problems with client_id or redirect_uri are shown here, never redirected.
 */
export function registerAuthorizationPage(app: FastifyInstance, ctx: SandboxContext): void {
  const problem = (reply: FastifyReply, text: string): FastifyReply =>
    reply.code(400).type('text/html; charset=utf-8').send(page('Authorization error', `<h1>Cannot authorize</h1><p class="muted">${escapeHtml(text)}</p>`));

  const check = (q: Record<string, string | undefined>): string | null => {
    if (!q.client_id || !ctx.state.applications.has(q.client_id)) return 'Unknown client_id.';
    if (q.response_type !== 'code') return 'response_type must be code.';
    if (!q.redirect_uri || !URL.canParse(q.redirect_uri)) return 'redirect_uri must be an absolute URL.';
    if (q.code_challenge_method && !['S256', 'plain'].includes(q.code_challenge_method)) return 'code_challenge_method must be S256 or plain.';
    return null;
  };

  app.get('/authorization', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const error = check(q);
    if (error) return problem(reply, error);
    const application = ctx.state.applications.get(q.client_id as string);
    const owner = application ? ctx.state.sellers.get(application.owner_user_id) : undefined;
    const hidden = ['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope']
      .filter((k) => q[k] !== undefined)
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(q[k] as string)}">`)
      .join('');
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Authorize application',
          `<span class="badge">Sandbox</span><h1>Allow access to your account?</h1>
           <p class="muted">Application ${escapeHtml(q.client_id as string)} asks to create and refund QR orders for ${escapeHtml(owner?.name ?? 'your store')}.</p>
           <form method="post" action="/authorization/decision">${hidden}<input type="hidden" name="decision" value="approve"><button class="approve" type="submit">Allow</button></form>
           <form method="post" action="/authorization/decision">${hidden}<input type="hidden" name="decision" value="deny"><button class="reject" type="submit">Deny</button></form>`,
        ),
      );
  });

  app.post('/authorization/decision', async (request, reply) => {
    const form = Object.fromEntries(new URLSearchParams(typeof request.body === 'string' ? request.body : ''));
    const error = check({ ...form, response_type: 'code' });
    if (error) return problem(reply, error);
    const target = new URL(form.redirect_uri as string);
    if (form.decision !== 'approve') {
      target.searchParams.set('error', 'access_denied');
    } else {
      try {
        const { code } = ctx.state.transaction(() =>
          ctx.oauth.authorize({
            client_id: form.client_id as string,
            redirect_uri: form.redirect_uri as string,
            ...(form.scope ? { scope: form.scope } : {}),
            ...(form.code_challenge ? { code_challenge: form.code_challenge } : {}),
            ...(form.code_challenge_method === 'S256' || form.code_challenge_method === 'plain' ? { code_challenge_method: form.code_challenge_method } : {}),
          }),
        );
        target.searchParams.set('code', code);
      } catch (e) {
        if (e instanceof OAuthError) return problem(reply, e.message);
        throw e;
      }
    }
    if (form.state !== undefined) target.searchParams.set('state', form.state);
    return reply.redirect(target.toString(), 302);
  });
}
