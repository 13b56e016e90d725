// issue 4: secrets never reach the logs. The logger writes JSON lines and redacts registered secrets, anything shaped
// like a platform token (platform-facts "Identifiers and formats") and Authorization values, wherever they appear.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDACTED, createLogger } from '../../../../electron/core/host/logger.ts';
import { VaultUnavailableError } from '../../../../electron/core/ports.ts';

// Shapes as the sandbox issues them (sandbox/domain/oauth.ts).
const ACCESS = 'TEST-4137214925436563-091014-0123456789abcdef0123456789abcdef-1234567890';
const LIVE = 'APP_USR-4137214925436563-091014-fedcba9876543210fedcba9876543210-1234567890';
const REFRESH = 'TG-66e1f0c2a1b2c3d4e5f60718-1234567890';
const CLIENT_SECRET = 'q8ZrX2mK4vN7pL1sT9wB3yH6';

function capture(secrets: string[] = []) {
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line), secrets: () => secrets, clock: { now: () => Date.UTC(2024, 8, 10, 14, 26, 42, 109) } });
  const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  return { logger, lines, parsed };
}

/** `text` as the logger writes it as a message: every string of a line goes through the same redaction. */
function redactText(text: string): string {
  const { logger, parsed } = capture();
  logger.info(text);
  return parsed()[0]?.msg as string;
}

test('writes one JSON object per line with time, level, message and fields', () => {
  const { logger, lines, parsed } = capture();
  logger.info('order created', { orderId: 'ORDTST01JABCDEFGHJKMNPQRSTVWXY', amount: '10.50' });
  logger.warn('relay silent', { seconds: 12 });
  logger.error('refund failed', { code: 'refund_amount_exceeded', attempts: 3 });
  assert.equal(lines.length, 3);
  assert.ok(lines.every((line) => !line.includes('\n')));
  assert.deepEqual(parsed()[0], { time: '2024-09-10T14:26:42.109Z', level: 'info', msg: 'order created', orderId: 'ORDTST01JABCDEFGHJKMNPQRSTVWXY', amount: '10.50' });
  assert.deepEqual(parsed().map((l) => l.level), ['info', 'warn', 'error']);
});

test('fields named like the envelope do not overwrite it', () => {
  const { logger, parsed } = capture();
  logger.info('x', { level: 'fake', time: 1, msg: 'other' });
  assert.deepEqual(parsed()[0], { time: '2024-09-10T14:26:42.109Z', level: 'info', msg: 'x', _level: 'fake', _time: 1, _msg: 'other' });
});

test('a value equal to a registered secret is redacted, in the message and in nested fields', () => {
  const { logger, lines, parsed } = capture([CLIENT_SECRET, 'pw12']);
  logger.info(`connecting with ${CLIENT_SECRET}`, { nested: { deeper: [{ value: CLIENT_SECRET }, 'pw12', 'pw123'] } });
  assert.ok(!lines[0]?.includes(CLIENT_SECRET));
  const line = parsed()[0];
  assert.equal(line?.msg, `connecting with ${REDACTED}`);
  // A short secret is hidden where a whole value equals it; inside longer text it would shred every message.
  assert.deepEqual(line?.nested, { deeper: [{ value: REDACTED }, REDACTED, 'pw123'] });
});

test('secrets are asked for on every line, so a refreshed token is covered at once', () => {
  const secrets: string[] = [];
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line), secrets: () => secrets });
  secrets.push('opaque-token-value-1');
  logger.info('token opaque-token-value-1');
  assert.ok(!lines.join('').includes('opaque-token-value-1'));
});

test('token-shaped strings are redacted even when nobody registered them: TEST-, APP_USR-, TG-', () => {
  const { logger, lines } = capture();
  logger.info(`got ${ACCESS} and ${REFRESH}`, { live: LIVE, url: `http://127.0.0.1:1/cb?code=${REFRESH}&state=abc`, list: [[`x ${ACCESS} y`]] });
  const text = lines.join('\n');
  for (const secret of [ACCESS, LIVE, REFRESH, '0123456789abcdef0123456789abcdef', '66e1f0c2a1b2c3d4e5f60718']) assert.ok(!text.includes(secret), secret);
  assert.match(text, /got \[redacted\] and \[redacted\]/);
  assert.match(text, /state=abc/);
});

test('ordinary identifiers that merely look alike are left alone', () => {
  const plain = 'order ORDTST01JABCDEFGHJKMNPQRSTVWXY, payment PAY01JABCDEFGHJKMNPQRSTVWXYZ, TEST-1 mode, LATEST-build, error code=invalid_grant';
  assert.equal(redactText(plain), plain);
});

test('Authorization headers and bearer values are redacted, in text and in fields of any casing', () => {
  const { logger, lines, parsed } = capture();
  logger.info('request: Authorization: Bearer abc.def-ghi sent; retry with bearer xyz123', {
    headers: { Authorization: 'Bearer opaque-abc', 'X-Idempotency-Key': 'c0ffee-key', 'content-type': 'application/json' },
    raw: '{"authorization":"Basic dXNlcjpwYXNz","other":1}',
  });
  assert.ok(!/abc\.def-ghi|xyz123|opaque-abc|dXNlcjpwYXNz/.test(lines.join('')), lines.join(''));
  const line = parsed()[0];
  assert.deepEqual(line?.headers, { Authorization: REDACTED, 'X-Idempotency-Key': 'c0ffee-key', 'content-type': 'application/json' });
  assert.equal(redactText('GET /x Authorization: Bearer abc'), `GET /x Authorization: ${REDACTED}`);
  assert.equal(redactText('token_type Bearer abc123'), `token_type Bearer ${REDACTED}`);
  assert.equal(redactText('Basic dXNlcjpwYXNz'), `Basic ${REDACTED}`);
  assert.equal(redactText('the basic plan'), 'the basic plan');
});

test('fields whose name says they hold a secret are redacted whatever their value looks like', () => {
  const { logger, parsed } = capture();
  logger.info('connect', {
    clientId: '4137214925436563',
    client_secret: 'anything',
    accessToken: 'a',
    body: { refresh_token: 'b', password: 'c', pin: '1234', newPin: '5678', token_type: 'bearer', expires_in: 21600 },
  });
  assert.deepEqual(parsed()[0], {
    time: '2024-09-10T14:26:42.109Z',
    level: 'info',
    msg: 'connect',
    clientId: '4137214925436563',
    client_secret: REDACTED,
    accessToken: REDACTED,
    body: { refresh_token: REDACTED, password: REDACTED, pin: REDACTED, newPin: REDACTED, token_type: 'bearer', expires_in: 21600 },
  });
});

test('secrets in URL queries and form bodies are redacted', () => {
  assert.equal(
    redactText('POST /oauth/token grant_type=refresh_token&client_id=1&client_secret=s3cr3t&refresh_token=opaque'),
    `POST /oauth/token grant_type=refresh_token&client_id=1&client_secret=${REDACTED}&refresh_token=${REDACTED}`,
  );
  assert.equal(redactText('https://h/x?access_token=abc&y=1'), `https://h/x?access_token=${REDACTED}&y=1`);
});

test('errors are logged with name, message, code and stack, all redacted, and their cause', () => {
  const { logger, lines, parsed } = capture([CLIENT_SECRET]);
  const cause = new Error(`keytar said ${CLIENT_SECRET}`);
  logger.error('vault', { error: new VaultUnavailableError(`token ${ACCESS} could not be stored`, { cause }) });
  assert.ok(!lines[0]?.includes(CLIENT_SECRET) && !lines[0]?.includes(ACCESS));
  const error = parsed()[0]?.error as Record<string, unknown>;
  assert.equal(error.name, 'VaultUnavailableError', 'issue 28: the vault failure names itself');
  assert.equal(error.code, 'keychain_unavailable');
  assert.equal(error.message, `token ${REDACTED} could not be stored`);
  assert.equal(typeof error.stack, 'string');
  assert.equal((error.cause as Record<string, unknown>).message, `keytar said ${REDACTED}`);
});

test('odd values do not break a line: cycles, depth, bigint, dates, maps, buffers, undefined', () => {
  const { logger, parsed } = capture([CLIENT_SECRET]);
  const cyclic: Record<string, unknown> = { name: 'a' };
  cyclic.self = cyclic;
  let deep: Record<string, unknown> = { leaf: true };
  for (let i = 0; i < 20; i += 1) deep = { deep };
  logger.info('odd', {
    cyclic,
    deep,
    big: 10n,
    when: new Date(0),
    map: new Map([['client_secret', 'x'], ['k', CLIENT_SECRET]]),
    buf: Buffer.from(CLIENT_SECRET),
    nothing: undefined,
    fn: () => 1,
  });
  const line = parsed()[0];
  assert.deepEqual(line?.cyclic, { name: 'a', self: '[circular]' });
  assert.match(JSON.stringify(line?.deep), /\[too deep\]/);
  assert.equal(line?.big, '10');
  assert.equal(line?.when, '1970-01-01T00:00:00.000Z');
  assert.deepEqual(line?.map, { client_secret: REDACTED, k: REDACTED });
  assert.equal(line?.buf, `[${CLIENT_SECRET.length} bytes]`);
  assert.ok(!('nothing' in (line ?? {})) && !('fn' in (line ?? {})));
});

test('a failing sink or secrets callback never throws into the caller', () => {
  const logger = createLogger({
    write: () => {
      throw new Error('EPIPE');
    },
  });
  assert.doesNotThrow(() => logger.info('x'));
  const broken = createLogger({
    write: () => {},
    secrets: () => {
      throw new Error('vault gone');
    },
  });
  assert.doesNotThrow(() => broken.warn('y'));
});

test('issue 12: the web shell launch secret in a URL (?k=) and fields named for the pepper, webhook or launch secret are redacted', () => {
  const { logger, lines, parsed } = capture();
  logger.info('opened http://127.0.0.1:4100/?k=0123456789abcdef0123456789abcdef0123456789abcdef', {
    pinPepper: 'ab'.repeat(32),
    pepper: 'cd'.repeat(32),
    webhookSecret: 'whsec-value-1234',
    launch_secret: 'launch-value-5678',
  });
  const text = lines.join('\n');
  for (const value of ['0123456789abcdef0123456789abcdef0123456789abcdef', 'ab'.repeat(32), 'cd'.repeat(32), 'whsec-value-1234', 'launch-value-5678']) {
    assert.ok(!text.includes(value), value);
  }
  assert.equal(parsed()[0]?.msg, `opened http://127.0.0.1:4100/?k=${REDACTED}`);
});

test('issue 15: debug lines are written only when the logger is at debug level, redacted like the others', () => {
  const quiet = capture();
  quiet.logger.debug?.('keychain unavailable', { detail: 'no Secret Service' });
  assert.deepEqual(quiet.lines, [], 'off by default');

  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line), secrets: () => [CLIENT_SECRET], debug: true });
  logger.debug?.('keychain unavailable', { detail: `no Secret Service for ${CLIENT_SECRET}` });
  const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  assert.deepEqual([line.level, line.msg, line.detail], ['debug', 'keychain unavailable', `no Secret Service for ${REDACTED}`]);
});
