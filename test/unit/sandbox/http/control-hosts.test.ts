// issue 12 (DNS rebinding): which Host headers the sandbox's control API answers (sandbox/http/control-hosts.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ControlHosts } from '../../../../sandbox/http/control-hosts.ts';

const LOOPBACK = { localAddress: '127.0.0.1', localPort: 4321 };

describe('ControlHosts.permits (issue 12: the control API answers only names of this server)', () => {
  it('accepts the loopback names on the port the connection came in on, in any letter case', () => {
    const hosts = new ControlHosts();
    for (const host of ['127.0.0.1:4321', 'localhost:4321', 'LocalHost:4321', '[::1]:4321']) assert.equal(hosts.permits(host, LOOPBACK), true, host);
  });

  it('refuses another name that resolves here (a rebinding page), another port, a missing Host, or junk', () => {
    const hosts = new ControlHosts();
    for (const host of ['evil.example:4321', 'evil.example', 'localhost.evil.example:4321', '127.0.0.1:80', '127.0.0.1', 'localhost:4322', '', 'localhost:4321:1', '[::1', 'a b:4321']) {
      assert.equal(hosts.permits(host, LOOPBACK), false, JSON.stringify(host));
    }
    assert.equal(hosts.permits(undefined, LOOPBACK), false);
  });

  it('accepts the address the connection came in on (an IP literal cannot be rebound), IPv4-mapped too', () => {
    const hosts = new ControlHosts();
    assert.equal(hosts.permits('192.168.1.5:4321', { localAddress: '192.168.1.5', localPort: 4321 }), true);
    assert.equal(hosts.permits('192.168.1.5:4321', { localAddress: '::ffff:192.168.1.5', localPort: 4321 }), true);
    assert.equal(hosts.permits('[fe80::1]:4321', { localAddress: 'fe80::1', localPort: 4321 }), true);
    assert.equal(hosts.permits('192.168.1.6:4321', { localAddress: '192.168.1.5', localPort: 4321 }), false);
  });

  it('accepts names it is told about (the listen host, --allow-host), still only on the connection port', () => {
    const hosts = new ControlHosts(['Sandbox']);
    hosts.allow('kiosk-sandbox.internal');
    hosts.allow('::2');
    assert.equal(hosts.permits('sandbox:4321', LOOPBACK), true);
    assert.equal(hosts.permits('kiosk-sandbox.internal:4321', LOOPBACK), true);
    assert.equal(hosts.permits('[::2]:4321', LOOPBACK), true);
    assert.equal(hosts.permits('sandbox:9999', LOOPBACK), false);
    assert.deepEqual(hosts.names(), ['localhost', '127.0.0.1', '[::1]', 'sandbox', 'kiosk-sandbox.internal', '[::2]']);
  });

  it('a Host without a port means port 80', () => {
    const hosts = new ControlHosts();
    assert.equal(hosts.permits('localhost', { localAddress: '127.0.0.1', localPort: 80 }), true);
    assert.equal(hosts.permits('localhost', LOOPBACK), false);
  });

  it('an injected request (no socket port: nothing came over the network) is judged by name only', () => {
    const hosts = new ControlHosts();
    assert.equal(hosts.permits('localhost:80', {}), true);
    assert.equal(hosts.permits('evil.example:80', {}), false);
  });
});
