// issue 28 "Errors from the table": every refusal of the web shell is the table's code with the table's status and
// words (shared/kiosk-errors.ts), from the HTTP layer's own (Node could not read the request) to the API bridge's.
// Real servers on port 0, real sockets.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startWebShell, type WebShell } from '../../../../electron/web-shell/server.ts';
import type { KioskApi } from '../../../../shared/kiosk-api.ts';
import type { ServerLimits } from '../../../../node-common/server-limits.ts';
import { kioskError, kioskStatus, type KioskOwnErrorCode } from '../../../../shared/kiosk-errors.ts';

const api = { getSession: async () => ({ ok: true, value: { state: 'connected' } }) } as unknown as KioskApi;
const start = (limits?: ServerLimits) => startWebShell({ api, events: { subscribe: () => () => undefined }, staticDir: null, ...(limits ? { limits } : {}) });
let shell: WebShell;
before(async () => (shell = await start()));
after(() => shell.close());

/** The status line and the JSON body of what a shell wrote on a raw socket before it closed it (HTTP/1.0 or an unread request: not chunked). */
function raw(request: string, to: WebShell = shell): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(to.origin).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.[01] (\d{3}) /.exec(text)?.[1]);
      resolve({ status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });
    });
    socket.write(request);
  });
}

const refused = (code: KioskOwnErrorCode, extra: object = {}) => ({ status: kioskStatus(code), body: { ok: false, error: { ...kioskError(code), ...extra } } });

test('a request Node cannot read is answered from the table before the connection closes: unreadable, headers too large, too slow', async () => {
  assert.deepEqual(await raw('NOT HTTP AT ALL\r\n\r\n'), refused('unreadable_request'));
  assert.deepEqual(await raw(`GET / HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`), refused('headers_too_large'));
  // Headers that never end: Node's request timeout, answered as the table's request_timeout (retryable). A shell of its
  // own with short limits (issue 12 "slow clients"), so the wait is short and no other request meets them.
  const impatient = await start({ headersTimeoutMs: 300, requestTimeoutMs: 300, keepAliveTimeoutMs: 1_000, maxConnections: 16 });
  try {
    assert.deepEqual(await raw('GET / HTTP/1.1\r\nhost: x\r\n', impatient), refused('request_timeout'));
  } finally {
    await impatient.close();
  }
});

test('the API bridge refuses with the table\'s status and words, the detail it knows beside them', async () => {
  const host = new URL(shell.origin).host;
  const headers = { 'content-type': 'application/json', 'x-kiosk-secret': shell.secret, origin: shell.origin };
  const answer = async (response: Response) => ({ status: response.status, body: await response.json() });
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers: { ...headers, 'x-kiosk-secret': 'no' }, body: '{}' })), refused('launch_secret_refused'));
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'PUT', headers, body: '{}' })), refused('method_not_allowed'));
  assert.deepEqual(await answer(await fetch(`${shell.origin}/`, { method: 'DELETE' })), refused('method_not_allowed'));
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/noSuchMethod`, { method: 'POST', headers, body: '{}' })), refused('unknown_method', { details: ['noSuchMethod'] }));
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers, body: '{"a":' })), refused('invalid_input', { details: ['body'] }));
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: '{}' })), refused('unsupported_media_type'));
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers, body: JSON.stringify({ x: 'a'.repeat(70_000) }) })), refused('too_large'));
  const { origin: _origin, ...sameSiteless } = headers;
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers: { ...sameSiteless, 'sec-fetch-site': 'cross-site' }, body: '{}' })), refused('forbidden_origin'));
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body: '{}' })), refused('forbidden_origin'));
  assert.deepEqual(await raw(`GET //elsewhere HTTP/1.0\r\nhost: ${host}\r\n\r\n`), refused('bad_path'));
  assert.deepEqual(await raw(`GET / HTTP/1.0\r\nhost: attacker.example\r\n\r\n`), refused('wrong_host'));
  // A Result is an answer, not a refusal: 200 with the core's value.
  assert.deepEqual(await answer(await fetch(`${shell.origin}/api/getSession`, { method: 'POST', headers, body: '{}' })), { status: 200, body: { ok: true, value: { state: 'connected' } } });
});
