// The consent page of the authorization_code flow over real HTTP (issue 2; seed 4.1 / 5.3; platform-facts "OAuth"):
// GET /authorization shows Allow and Deny forms; POST /authorization/decision redirects back to the application.
// The tests read the forms out of the served HTML and post exactly what a browser would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';

const REDIRECT = 'https://kiosk.example/oauth/callback';
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

interface Form {
  method: string;
  action: string;
  fields: Array<[string, string]>;
  button: string;
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] as string);
}

function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? undefined : unescapeHtml(match[1]);
}

/** The <form>s of a page, with their hidden fields in document order and the text of their button. */
function formsOf(html: string): Form[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map(([, open = '', inner = '']) => ({
    method: (attr(open, 'method') ?? 'get').toLowerCase(),
    action: attr(open, 'action') ?? '',
    fields: [...inner.matchAll(/<input\b[^>]*>/g)].map(([tag]) => [attr(tag, 'name') ?? '', attr(tag, 'value') ?? ''] as [string, string]),
    button: unescapeHtml(/<button\b[^>]*>([\s\S]*?)<\/button>/.exec(inner)?.[1]?.trim() ?? ''),
  }));
}

function field(form: Form, name: string): string | undefined {
  return form.fields.find(([k]) => k === name)?.[1];
}

async function getPage(h: Harness, params: Record<string, string> | Array<[string, string]>): Promise<{ response: Response; html: string }> {
  const response = await fetch(`${h.url}/authorization?${new URLSearchParams(params).toString()}`, { redirect: 'manual' });
  return { response, html: await response.text() };
}

/** What the browser does when the button of a form is pressed: POST the fields form-encoded to its action. */
async function submit(h: Harness, form: Form): Promise<Response> {
  assert.equal(form.method, 'post');
  return postDecision(h, form.fields);
}

function postDecision(h: Harness, fields: Array<[string, string]> | Record<string, string>, contentType = 'application/x-www-form-urlencoded'): Promise<Response> {
  return fetch(`${h.url}/authorization/decision`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': contentType },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Allow and Deny, in that order, as the page shows them. */
async function consentForms(h: Harness, params: Record<string, string>): Promise<{ allow: Form; deny: Form }> {
  const { response, html } = await getPage(h, params);
  assert.equal(response.status, 200, html);
  const forms = formsOf(html);
  assert.equal(forms.length, 2, html);
  const [allow, deny] = forms as [Form, Form];
  return { allow, deny };
}

function pageParams(s: SellerWithToken, extra: Record<string, string> = {}): Record<string, string> {
  return { client_id: s.client_id, response_type: 'code', redirect_uri: REDIRECT, state: 'st-123', ...extra };
}

function location(response: Response): URL {
  assert.equal(response.status, 302);
  const header = response.headers.get('location');
  assert.ok(header, 'a Location header');
  return new URL(header);
}

/** A 400 HTML page, no Location: the page never redirects a request it cannot trust. Takes a fetched page or a response. */
async function assertRefusedPage(reply: Response | { response: Response; html: string }): Promise<string> {
  const response = reply instanceof Response ? reply : reply.response;
  const html = reply instanceof Response ? await reply.text() : reply.html;
  assert.equal(response.status, 400, html);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(response.headers.get('location'), null);
  assert.match(html, /Cannot authorize/);
  assert.equal(formsOf(html).length, 0);
  return html;
}

function exchange(h: Harness, s: SellerWithToken, code: string, extra: Record<string, string> = {}) {
  return h.request('POST', '/oauth/token', {
    body: { grant_type: 'authorization_code', client_id: s.client_id, client_secret: s.client_secret, code, redirect_uri: REDIRECT, ...extra },
  });
}

describe('consent page: GET /authorization and POST /authorization/decision', () => {
  let h: Harness;
  before(async () => {
    h = await startSandbox();
  });
  after(async () => {
    await h.close();
  });

  test('issue 2: GET /authorization is an HTML page with an Allow form and a Deny form posting to /authorization/decision', async () => {
    const s = await h.seller('AR');
    const { response, html } = await getPage(h, pageParams(s, { code_challenge: CHALLENGE, code_challenge_method: 'S256' }));
    assert.equal(response.status, 200, html);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
    assert.match(html, /^<!doctype html>/i);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
    const forms = formsOf(html);
    assert.deepEqual(
      forms.map((f) => [f.method, f.action, f.button, field(f, 'decision')]),
      [
        ['post', '/authorization/decision', 'Allow', 'approve'],
        ['post', '/authorization/decision', 'Deny', 'deny'],
      ],
    );
    for (const form of forms) {
      assert.equal(field(form, 'client_id'), s.client_id);
      assert.equal(field(form, 'redirect_uri'), REDIRECT);
      assert.equal(field(form, 'state'), 'st-123');
      assert.equal(field(form, 'code_challenge'), CHALLENGE);
      assert.equal(field(form, 'code_challenge_method'), 'S256');
      assert.equal(field(form, 'response_type'), undefined);
    }
    assert.ok(html.includes(s.client_id));
    assert.ok(html.includes('https://kiosk.example'), 'the page names where the person will be sent');
  });

  test('issue 2: Allow → 302 to redirect_uri?code=…&state=… (same state); the code exchanges with the PKCE verifier', async () => {
    const s = await h.seller('AR');
    const { allow } = await consentForms(h, pageParams(s, { code_challenge: CHALLENGE, code_challenge_method: 'S256' }));
    const response = await submit(h, allow);
    const target = location(response);
    assert.equal(`${target.origin}${target.pathname}`, REDIRECT);
    assert.deepEqual([...target.searchParams.keys()].sort(), ['code', 'state']);
    assert.equal(target.searchParams.get('state'), 'st-123');
    const code = target.searchParams.get('code') ?? '';
    assert.match(code, new RegExp(`^TG-[0-9a-f]+-${s.user_id}$`));
    // seed 7.1: bound to the PKCE challenge and to redirect_uri.
    const missing = await exchange(h, s, code);
    assert.equal(missing.status, 400, missing.text);
    assert.equal(missing.body.error, 'invalid_grant');
    const otherRedirect = await exchange(h, s, code, { code_verifier: VERIFIER, redirect_uri: 'https://kiosk.example/elsewhere' });
    assert.equal(otherRedirect.body.error, 'invalid_grant');
    const token = await exchange(h, s, code, { code_verifier: VERIFIER });
    assert.equal(token.status, 200, token.text);
    assert.equal(token.body.user_id, Number(s.user_id));
    assert.equal(token.body.scope, 'offline_access read write');
    assert.match(token.body.access_token, new RegExp(`^TEST-${s.client_id}-\\d{6}-[0-9a-f]{32}-${s.user_id}$`));
  });

  test('issue 2: Allow without PKCE; the code exchanges without a verifier; a query already in redirect_uri is kept', async () => {
    const s = await h.seller('AR');
    const redirect = 'https://kiosk.example/cb?shop=12&lang=es';
    const { allow } = await consentForms(h, pageParams(s, { redirect_uri: redirect }));
    const target = location(await submit(h, allow));
    assert.equal(`${target.origin}${target.pathname}`, 'https://kiosk.example/cb');
    assert.equal(target.searchParams.get('shop'), '12');
    assert.equal(target.searchParams.get('lang'), 'es');
    assert.equal(target.searchParams.get('state'), 'st-123');
    const code = target.searchParams.get('code') ?? '';
    const token = await exchange(h, s, code, { redirect_uri: redirect });
    assert.equal(token.status, 200, token.text);
  });

  test('issue 2: Deny → 302 to redirect_uri?error=access_denied&state=…, and no code', async () => {
    const s = await h.seller('AR');
    const { deny } = await consentForms(h, pageParams(s, { code_challenge: CHALLENGE, code_challenge_method: 'S256' }));
    const target = location(await submit(h, deny));
    assert.equal(`${target.origin}${target.pathname}`, REDIRECT);
    assert.deepEqual([...target.searchParams.entries()].sort(), [
      ['error', 'access_denied'],
      ['state', 'st-123'],
    ]);
  });

  test('issue 2: state comes back exactly as sent (any characters), and is escaped in the page', async () => {
    const s = await h.seller('AR');
    const state = `"><script>alert(1)</script>&code=forged é+/=`;
    const { response, html } = await getPage(h, pageParams(s, { state }));
    assert.equal(response.status, 200, html);
    assert.ok(!html.includes('<script>alert(1)'), 'the state is HTML-escaped');
    const [allow, deny] = formsOf(html) as [Form, Form];
    assert.equal(field(allow, 'state'), state);
    const approved = location(await submit(h, allow));
    assert.equal(approved.searchParams.get('state'), state);
    assert.equal(approved.searchParams.getAll('code').length, 1);
    assert.notEqual(approved.searchParams.get('code'), 'forged');
    assert.equal(location(await submit(h, deny)).searchParams.get('state'), state);
    // A "?" left unencoded inside the query belongs to the value.
    const raw = await fetch(`${h.url}/authorization?client_id=${s.client_id}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}&state=a?b=c`);
    const rawHtml = await raw.text();
    assert.equal(raw.status, 200, rawHtml);
    assert.equal(field(formsOf(rawHtml)[0] as Form, 'state'), 'a?b=c');
  });

  test('issue 2: without a state the redirect carries none', async () => {
    const s = await h.seller('AR');
    const params = pageParams(s);
    delete params.state;
    const { allow, deny } = await consentForms(h, params);
    assert.equal(field(allow, 'state'), undefined);
    assert.deepEqual([...location(await submit(h, allow)).searchParams.keys()], ['code']);
    assert.deepEqual([...location(await submit(h, deny)).searchParams.keys()], ['error']);
  });

  test('platform-facts OAuth: the real platform URL (…&platform_id=mp&state=…&redirect_uri=…) is accepted; platform_id is not carried', async () => {
    const s = await h.seller('BR');
    const { allow } = await consentForms(h, { client_id: s.client_id, response_type: 'code', platform_id: 'mp', state: 'xyz', redirect_uri: REDIRECT });
    assert.equal(field(allow, 'platform_id'), undefined);
    const target = location(await submit(h, allow));
    assert.equal(target.searchParams.get('state'), 'xyz');
    const token = await exchange(h, s, target.searchParams.get('code') ?? '');
    assert.equal(token.status, 200, token.text);
  });

  test('issue 2: unknown client_id → 400 HTML page and no redirect', async () => {
    const s = await h.seller('AR');
    await assertRefusedPage(await getPage(h, pageParams(s, { client_id: '9999999999999999' })));
    const params = pageParams(s);
    delete params.client_id;
    await assertRefusedPage(await getPage(h, params));
  });

  test('issue 2: a response_type other than code (or none) → 400 HTML page and no redirect', async () => {
    const s = await h.seller('AR');
    for (const responseType of ['token', 'CODE', 'code token', '']) {
      await assertRefusedPage(await getPage(h, pageParams(s, { response_type: responseType })));
    }
    const params = pageParams(s);
    delete params.response_type;
    await assertRefusedPage(await getPage(h, params));
  });

  test('issue 2: a bad redirect_uri (missing, relative, not http(s), with a fragment) → 400 HTML page and no redirect', async () => {
    const s = await h.seller('AR');
    for (const redirect of ['', '/oauth/callback', 'kiosk.example/cb', 'javascript:alert(1)', 'data:text/html,hi', 'ftp://kiosk.example/cb', 'https://kiosk.example/cb#frag']) {
      const html = await assertRefusedPage(await getPage(h, pageParams(s, { redirect_uri: redirect })));
      assert.match(html, /redirect_uri/);
    }
    const params = pageParams(s);
    delete params.redirect_uri;
    await assertRefusedPage(await getPage(h, params));
  });

  test('issue 2: a bad PKCE parameter or scope → 400 HTML page', async () => {
    const s = await h.seller('AR');
    await assertRefusedPage(await getPage(h, pageParams(s, { code_challenge: CHALLENGE, code_challenge_method: 'S512' })));
    await assertRefusedPage(await getPage(h, pageParams(s, { code_challenge_method: 'S256' })));
    await assertRefusedPage(await getPage(h, pageParams(s, { code_challenge: 'has spaces in it' })));
    await assertRefusedPage(await getPage(h, pageParams(s, { scope: 'admin' })));
    await assertRefusedPage(await getPage(h, pageParams(s, { scope: 'read read' })));
  });

  test('RFC 6749 3.1: a repeated parameter → 400 HTML page (not a server error)', async () => {
    const s = await h.seller('AR');
    for (const name of ['state', 'client_id', 'redirect_uri']) {
      const params = Object.entries(pageParams(s));
      params.push([name, 'again']);
      await assertRefusedPage(await getPage(h, params));
    }
  });

  test('issue 2: the decision is checked again: tampered client_id or redirect_uri, a missing or unknown decision, a non-form body → 400, no redirect', async () => {
    const s = await h.seller('AR');
    const { allow } = await consentForms(h, pageParams(s));
    const tamper = (name: string, value: string | null): Array<[string, string]> => {
      const kept = allow.fields.filter(([k]) => k !== name);
      return value === null ? kept : [...kept, [name, value]];
    };
    await assertRefusedPage(await postDecision(h, tamper('client_id', '9999999999999999')));
    await assertRefusedPage(await postDecision(h, tamper('redirect_uri', 'javascript:alert(1)')));
    await assertRefusedPage(await postDecision(h, tamper('redirect_uri', null)));
    await assertRefusedPage(await postDecision(h, tamper('decision', null)));
    await assertRefusedPage(await postDecision(h, tamper('decision', 'maybe')));
    await assertRefusedPage(await postDecision(h, [...allow.fields, ['state', 'twice']]));
    await assertRefusedPage(await postDecision(h, tamper('scope', 'admin')));
    const json = await fetch(`${h.url}/authorization/decision`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(Object.fromEntries(allow.fields)),
    });
    await assertRefusedPage(json);
    // The untouched form still works.
    assert.ok(location(await submit(h, allow)).searchParams.get('code'));
  });

  test('seed 7.1: a scope chosen on the page ("read write", no offline_access) is granted and cannot be refreshed', async () => {
    const s = await h.seller('AR');
    const { response, html } = await getPage(h, pageParams(s, { scope: 'read write' }));
    assert.equal(response.status, 200, html);
    assert.match(html, /read write/);
    const [allow] = formsOf(html) as [Form];
    assert.equal(field(allow, 'scope'), 'read write');
    const code = location(await submit(h, allow)).searchParams.get('code') ?? '';
    const token = await exchange(h, s, code);
    assert.equal(token.status, 200, token.text);
    assert.equal(token.body.scope, 'read write');
    const renewed = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'refresh_token', client_id: s.client_id, client_secret: s.client_secret, refresh_token: token.body.refresh_token },
    });
    assert.equal(renewed.status, 400, renewed.text);
    assert.equal(renewed.body.error, 'unauthorized_client');
  });

  test('seed 8: a code from the page is valid 10 minutes on the sandbox clock, and single use', async () => {
    const s = await h.seller('AR');
    const { allow } = await consentForms(h, pageParams(s));
    const first = location(await submit(h, allow)).searchParams.get('code') ?? '';
    const second = location(await submit(h, allow)).searchParams.get('code') ?? '';
    assert.notEqual(first, second);
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 9 * 60 + 59 } });
    assert.equal((await exchange(h, s, first)).status, 200);
    assert.equal((await exchange(h, s, first)).body.error, 'invalid_grant');
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 1 } });
    const expired = await exchange(h, s, second);
    assert.equal(expired.status, 400, expired.text);
    assert.equal(expired.body.error, 'invalid_grant');
  });
});
