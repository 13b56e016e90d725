import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { listen } from '../../../node-common/listen.ts';
import type { Logger } from '../ports.ts';
import { AuthorizationError } from './errors.ts';
import { createPkcePair, createState, type RandomBytes } from './pkce.ts';

export interface LoopbackAuthorizationOptions {
  /** Where the platform's authorization page lives: `${authBaseUrl}/authorization` (platform-facts "OAuth"). */
  authBaseUrl: string;
  clientId: string;
  /** Opens the URL in the system browser; the caller supplies it (Electron's shell.openExternal, `xdg-open`, a test). */
  openBrowser: (url: string) => void | Promise<void>;
  /** How long a person has to answer the page. Default 5 minutes (the code itself lives 10: seed 8). */
  timeoutMs?: number;
  /** Aborting gives up the wait (the manager closed the dialog). */
  signal?: AbortSignal;
  /** Space-separated subset of read, write, offline_access (seed 2.2); the platform's default when absent. */
  scope?: string;
  randomBytes?: RandomBytes;
  logger?: Logger;
}

export interface LoopbackAuthorizationResult {
  code: string;
  /** The PKCE verifier to send with the code (RFC 7636 4.5). */
  codeVerifier: string;
  /** The redirect_uri the code was issued for; the exchange must repeat it exactly. */
  redirectUri: string;
}

const CALLBACK_PATH = '/callback';
const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * The authorization_code flow with PKCE (S256) and a loopback redirect (issue 4; RFC 8252 7.3): listens on
 * 127.0.0.1 on a free port, opens the platform's authorization page through `openBrowser`, and waits for the browser
 * to come back to http://127.0.0.1:PORT/callback. The browser gets a small page saying how it ended, and the server is
 * closed before this returns.
 *
 * Resolves with the code, the verifier and the redirect_uri to exchange them with. Rejects with AuthorizationError:
 * `access_denied` (the person chose Deny), `authorization_state_mismatch` (the callback's state is not this request's:
 * RFC 6749 10.12), `authorization_timeout` (no answer within timeoutMs), `authorization_failed` (any other error
 * answer, an abort, or a browser that could not be opened).
 */
export async function authorizeViaLoopback(options: LoopbackAuthorizationOptions): Promise<LoopbackAuthorizationResult> {
  const pkce = createPkcePair(options.randomBytes);
  const state = createState(options.randomBytes);
  if (options.signal?.aborted) throw new AuthorizationError('authorization_failed', 'The sign-in was cancelled.');

  let settle!: (outcome: { ok: true; code: string } | { ok: false; error: AuthorizationError }) => void;
  const outcome = new Promise<{ ok: true; code: string } | { ok: false; error: AuthorizationError }>((resolve) => {
    let settled = false;
    settle = (value) => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
  });
  let finished = false;

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH) {
      answer(response, 404, 'Not found', 'This address only receives the answer of the payment platform’s sign-in page.');
      return;
    }
    if (finished) {
      answer(response, 410, 'Sign-in finished', 'This sign-in is already over. You can close this window.');
      return;
    }
    const result = readCallback(url.searchParams, state);
    finished = true;
    if (result.ok) {
      answer(response, 200, 'Connected', 'The kiosk is connected to your account. You can close this window.', () => settle(result));
    } else {
      answer(response, 400, 'Not connected', `${result.error.message} You can close this window.`, () => settle(result));
    }
  });

  const origin = await listen(server, 0, '127.0.0.1', 'the authorization callback');
  const port = Number(new URL(origin).port);
  const redirectUri = `${origin}${CALLBACK_PATH}`;

  const timer = setTimeout(() => {
    finished = true;
    settle({ ok: false, error: new AuthorizationError('authorization_timeout', 'Nobody answered the sign-in page in time; start again.') });
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => {
    finished = true;
    settle({ ok: false, error: new AuthorizationError('authorization_failed', 'The sign-in was cancelled.') });
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const params = new URLSearchParams({
      client_id: options.clientId,
      response_type: 'code',
      platform_id: 'mp',
      redirect_uri: redirectUri,
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
    });
    if (options.scope !== undefined) params.set('scope', options.scope);
    const pageUrl = `${options.authBaseUrl.replace(/\/+$/, '')}/authorization?${params.toString()}`;
    options.logger?.info('opening the platform authorization page', { port });
    Promise.resolve()
      .then(() => options.openBrowser(pageUrl))
      .catch(() => {
        finished = true;
        settle({ ok: false, error: new AuthorizationError('authorization_failed', 'The system browser could not be opened.') });
      });

    const result = await outcome;
    if (!result.ok) throw result.error;
    return { code: result.code, codeVerifier: pkce.verifier, redirectUri };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

type CallbackResult = { ok: true; code: string } | { ok: false; error: AuthorizationError };

/** RFC 6749 4.1.2 / 4.1.2.1: state first (an answer to someone else's request is not ours to read), then error, then code. */
function readCallback(query: URLSearchParams, expectedState: string): CallbackResult {
  const states = query.getAll('state');
  if (states.length !== 1 || !sameText(states[0] ?? '', expectedState)) {
    return {
      ok: false,
      error: new AuthorizationError('authorization_state_mismatch', 'This answer does not belong to the sign-in the kiosk started, so it was refused.'),
    };
  }
  const error = query.get('error');
  if (error !== null) {
    if (error === 'access_denied') return { ok: false, error: new AuthorizationError('access_denied', 'Access to the account was not allowed.') };
    const safe = /^[\x20-\x7e]{1,64}$/.test(error) ? error : 'unknown';
    return { ok: false, error: new AuthorizationError('authorization_failed', `The sign-in page answered with an error (${safe}).`, [safe]) };
  }
  const codes = query.getAll('code');
  if (codes.length !== 1 || !codes[0]) {
    return { ok: false, error: new AuthorizationError('authorization_failed', 'The sign-in page sent no authorization code.') };
  }
  return { ok: true, code: codes[0] };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function answer(response: ServerResponse<IncomingMessage>, status: number, title: string, text: string, then?: () => void): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;margin:3rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`;
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    connection: 'close',
  });
  response.end(html, then);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}
