// OAuthService and its helpers without HTTP (seed 2.2, 5.3, 7.1; platform-facts "OAuth").
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { buildSandbox, type Sandbox } from '../../../../sandbox/app.ts';
import { ManualClock } from '../../../support/fakes/manual-clock.ts';
import { constantTimeEqual, parseScope, redirectUriProblem } from '../../../../sandbox/domain/oauth.ts';
import { OAuthError } from '../../../../sandbox/domain/errors.ts';
import { duplicatedTopLevelKey } from '../../../../sandbox/routes/oauth.ts';
import type { TokenRequest } from '../../../../shared/schemas/oauth.ts';

function oauthCode(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof OAuthError) return error.code;
    throw error;
  }
  assert.fail('expected an OAuthError');
}

describe('parseScope (seed 2.2 / 7.1 invalid_scope)', () => {
  test('seed 2.2: any set of read, write, offline_access, space-separated, keeps its order', () => {
    const values = ['read', 'write', 'offline_access'];
    fc.assert(
      fc.property(fc.shuffledSubarray(values, { minLength: 1 }), (parts) => {
        assert.equal(parseScope(parts.join(' ')), parts.join(' '));
      }),
    );
  });

  test('seed 7.1: unknown, repeated, empty or malformed scopes are invalid_scope', () => {
    for (const scope of ['', ' ', 'admin', 'read admin', 'read read', 'read,write', 'read  write', 'read ', '\tread', 'Read']) {
      assert.equal(oauthCode(() => parseScope(scope)), 'invalid_scope', JSON.stringify(scope));
    }
  });
});

describe('redirectUriProblem (decision: absolute http(s), no fragment)', () => {
  test('accepts absolute http and https URLs, with a port, a path and a query', () => {
    for (const uri of ['https://kiosk.example/cb', 'http://127.0.0.1:8123/oauth/callback?x=1', 'https://kiosk.example']) {
      assert.equal(redirectUriProblem(uri), null, uri);
    }
  });

  test('refuses missing, relative, non-http(s) and fragment-carrying URIs', () => {
    for (const uri of [undefined, '', '/cb', 'kiosk.example/cb', 'javascript:alert(1)', 'data:text/html,x', 'file:///etc/passwd', 'ftp://x.example/', 'https://kiosk.example/cb#x', 'https://kiosk.example/cb#']) {
      assert.notEqual(redirectUriProblem(uri), null, String(uri));
    }
  });
});

describe('constantTimeEqual', () => {
  test('is string equality', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        assert.equal(constantTimeEqual(a, b), a === b);
        assert.equal(constantTimeEqual(a, a), true);
      }),
    );
  });
});

describe('duplicatedTopLevelKey (seed 7.1 invalid_request "duplicated value" for JSON bodies)', () => {
  test('JSON.stringify never repeats a key: always null, whatever the nesting and escaping', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        assert.equal(duplicatedTopLevelKey(JSON.stringify(object)), null);
        assert.equal(duplicatedTopLevelKey(JSON.stringify(object, null, 2)), null);
      }),
    );
  });

  test('a top-level key written twice is found (by its decoded name)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.jsonValue(), (object, value) => {
        const text = JSON.stringify(object);
        const key = Object.keys(object)[0] as string;
        const doubled = `${text.slice(0, -1)} , ${JSON.stringify(key)} : ${JSON.stringify(value)}}`;
        assert.equal(duplicatedTopLevelKey(doubled), key);
      }),
    );
    assert.equal(duplicatedTopLevelKey('{"a\\u0062":1,"ab":2}'), 'ab');
  });

  test('repeats inside nested objects, arrays or string values are not top-level duplicates', () => {
    assert.equal(duplicatedTopLevelKey('{"a":{"b":1,"b":2},"c":[{"d":1},{"d":2}],"e":"\\"a\\":1"}'), null);
    assert.equal(duplicatedTopLevelKey('{"a":{"a":1}}'), null);
  });
});

describe('OAuthService with a data file: a refused request changes nothing, in memory or on disk', () => {
  const start = Date.UTC(2026, 0, 15, 12, 0, 0);
  const open = (file: string): Sandbox => buildSandbox({ dataFile: file, clock: new ManualClock(start), sweepIntervalMs: false });
  const issue = (sb: Sandbox, request: TokenRequest) => sb.state.transaction(() => sb.oauth.issue(request));

  test('seed 5.3 / 7.1: a code refused (forbidden, invalid_scope) stays usable, also after a restart; once used, it stays used', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oauth-unit-'));
    const file = join(dir, 'sandbox.db');
    try {
      let sb = open(file);
      const seller = sb.sellers.create({ country_code: 'AR' });
      const { code } = sb.state.transaction(() => sb.oauth.authorize({ client_id: seller.client_id, redirect_uri: 'https://kiosk.example/cb', scope: 'read offline_access' }));
      const request: TokenRequest = { grant_type: 'authorization_code', client_id: seller.client_id, client_secret: seller.client_secret, code, redirect_uri: 'https://kiosk.example/cb' };
      assert.equal(oauthCode(() => issue(sb, { ...request, scope: 'write' })), 'invalid_scope');
      sb.state.setMeta(`blocked:${seller.user_id}`, true);
      assert.equal(oauthCode(() => issue(sb, request)), 'forbidden');
      assert.equal(sb.state.authCodes.get(code)?.used, false);
      await sb.close();

      sb = open(file);
      assert.equal(sb.state.authCodes.get(code)?.used, false);
      sb.state.setMeta(`blocked:${seller.user_id}`, false);
      const token = issue(sb, request);
      assert.equal(token.scope, 'read offline_access');
      await sb.close();

      sb = open(file);
      assert.equal(sb.state.authCodes.get(code)?.used, true);
      assert.equal(oauthCode(() => issue(sb, request)), 'invalid_grant');
      // The refresh token rotated on disk too.
      const renewed = issue(sb, { grant_type: 'refresh_token', client_id: seller.client_id, client_secret: seller.client_secret, refresh_token: token.refresh_token });
      await sb.close();
      sb = open(file);
      assert.equal(oauthCode(() => issue(sb, { grant_type: 'refresh_token', client_id: seller.client_id, client_secret: seller.client_secret, refresh_token: token.refresh_token })), 'invalid_grant');
      assert.ok(sb.oauth.verify(renewed.access_token));
      await sb.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('seed 5.7: the grant a refreshed token descends from survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'oauth-unit-'));
    const file = join(dir, 'sandbox.db');
    try {
      let sb = open(file);
      const seller = sb.sellers.create({ country_code: 'AR' });
      const creds = { client_id: seller.client_id, client_secret: seller.client_secret };
      const cc = issue(sb, { grant_type: 'client_credentials', ...creds });
      await sb.close();
      sb = open(file);
      const renewed = issue(sb, { grant_type: 'refresh_token', ...creds, refresh_token: cc.refresh_token });
      assert.equal(sb.oauth.verify(renewed.access_token)?.grant, 'client_credentials');
      const again = issue(sb, { grant_type: 'refresh_token', ...creds, refresh_token: renewed.refresh_token });
      assert.equal(sb.oauth.verify(again.access_token)?.grant, 'client_credentials');
      await sb.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
