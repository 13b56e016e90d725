// The one loopback rule (shared/loopback.ts): plain http is allowed only for what never leaves this machine (issue 12,
// for the platform URL and the relay URL alike).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isLoopbackHostname } from '../../../shared/loopback.ts';

test('localhost, 127.0.0.0/8 and ::1 are loopback, as WHATWG URL writes them', () => {
  for (const url of ['http://localhost:1', 'http://127.0.0.1', 'http://127.255.0.9', 'http://[::1]:8', 'http://[0:0:0:0:0:0:0:1]/', 'http://127.1/', 'http://0x7f000001/']) {
    assert.equal(isLoopbackHostname(new URL(url).hostname), true, url);
  }
});

test('anything else is not: other addresses, look-alike names, names that only resolve to loopback', () => {
  for (const url of ['http://128.0.0.1', 'http://10.0.0.1', 'http://[::2]', 'http://[::ffff:127.0.0.1]', 'http://localhost.example', 'http://app.localhost', 'http://127.0.0.1.nip.io', 'http://0.0.0.0']) {
    assert.equal(isLoopbackHostname(new URL(url).hostname), false, url);
  }
  assert.equal(isLoopbackHostname('127.0.0.256'), false, 'not an address');
});
