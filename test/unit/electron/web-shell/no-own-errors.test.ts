// issue 28 "Errors from the table, as Fastify does": the web shell and the IPC layer answer a refusal from the kiosk's
// table (refuse(code), its status from kioskStatus), never with a status literal or a copy of the table's words of
// their own. The scan (test/support/own-error-scan.ts) reads their sources; the synthetic sources below show it fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describeOwnErrors, findOwnErrors } from '../../../support/own-error-scan.ts';
import { KIOSK_ERRORS } from '../../../../shared/kiosk-errors.ts';

const root = join(import.meta.dirname, '..', '..', '..', '..');

/** The web shell's sources, and the IPC layer's: the main process's handlers and sender check, and the preload. */
function shellSources(): string[] {
  const webShell = readdirSync(join(root, 'electron', 'web-shell'), { recursive: true, encoding: 'utf8' }).map((name) => join('electron', 'web-shell', name));
  const main = readdirSync(join(root, 'electron', 'main'), { encoding: 'utf8' })
    .filter((name) => /ipc/i.test(name))
    .map((name) => join('electron', 'main', name));
  const preload = readdirSync(join(root, 'electron', 'preload'), { encoding: 'utf8' }).map((name) => join('electron', 'preload', name));
  return [...webShell, ...main, ...preload].filter((file) => file.endsWith('.ts')).sort();
}

test('the web shell and the IPC layer write no HTTP status of a refusal and no text of the error table', () => {
  const files = shellSources();
  for (const expected of ['electron/web-shell/server.ts', 'electron/web-shell/answers.ts', 'electron/main/kiosk-ipc.ts', 'electron/preload/expose-kiosk.ts']) {
    assert.ok(files.includes(expected), `the scan reads ${expected}`);
  }
  const found = files.flatMap((file) => findOwnErrors(relative(root, join(root, file)), readFileSync(join(root, file), 'utf8')));
  assert.equal(found.length, 0, `answer these from shared/kiosk-errors.ts (refuse(code), kioskStatus):\n${describeOwnErrors(found)}`);
});

test('the scan finds each shape of a status literal, naming file and line', () => {
  const shapes = [
    'res.writeHead(404, { a: 1 });',
    'res.statusCode = 401;',
    'reply.code(415).send(body);',
    'reply.status(500);',
    'res.sendStatus(403);',
    'return json(res, 421, { ok: false });',
    "socket.end('HTTP/1.1 400 Bad Request\\r\\n');",
    "const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;",
    'const answer = { status: 413, body };',
  ];
  for (const shape of shapes) {
    const source = `import x from 'y';\n\n${shape}\n`;
    const found = findOwnErrors('electron/web-shell/synthetic.ts', source);
    assert.ok(found.length > 0, `found in: ${shape}`);
    assert.match(describeOwnErrors(found), /^electron\/web-shell\/synthetic\.ts:3: status \d{3} /, shape);
  }
});

test('the scan finds a copy of a table text, and lets success statuses, comments and the table\'s own answers pass', () => {
  const copied = `const FORBIDDEN = { code: 'forbidden_sender', message: '${KIOSK_ERRORS.forbidden_sender.message}' };`;
  assert.deepEqual(findOwnErrors('electron/main/synthetic.ts', copied), [{ file: 'electron/main/synthetic.ts', line: 1, what: "the table's text for forbidden_sender" }]);
  const fine = [
    "res.writeHead(200, { 'content-type': 'text/html' });",
    'res.writeHead(304, { etag });',
    '// A request Node cannot parse gets 400 (and 431 for headers too large).',
    ' * answered 401 when the secret is wrong',
    "return refusal(res, refuse('too_large'));",
    "json(res, result.ok ? 200 : kioskStatus('invalid_input'), result);",
    'const limit = 64 * 1024;',
    "frame: event.senderFrame?.url.slice(0, 200) ?? null",
  ].join('\n');
  assert.deepEqual(findOwnErrors('electron/web-shell/synthetic.ts', fine), []);
});
