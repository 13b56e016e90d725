// issue 12: the manager PIN's pepper in the real OS keychain (Secret Service through keytar; run under dbus-run-session
// with an unlocked gnome-keyring, as .ci/run does). A core over the keychain keeps its PIN across a restart; with the
// pepper gone from the keychain, or the keychain unreachable, the PIN is answered keychain_unavailable, never accepted,
// and nothing is forgotten. Without a Secret Service these tests report themselves skipped (or fail under
// REQUIRE_SECRET_SERVICE=1).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compose } from '../../../electron/core/compose.ts';
import type { KioskCore } from '../../../electron/core/kiosk-core.ts';
import { SECRET_NAMES, type TokenVault } from '../../../electron/core/ports.ts';
import { KeytarVault } from '../../../electron/core/vault/keytar-vault.ts';
import { secretServiceProblem, skipWithoutSecretService } from '../../support/secret-service.ts';

const PROFILE = `test-pin-${process.pid}-${randomBytes(4).toString('hex')}`;
const PIN = '8642';

const problem = await secretServiceProblem(PROFILE);
const skip = skipWithoutSecretService(problem);

/** A core with no platform behind it (the PIN needs none), over `vault`, its database in `dir`. */
function core(dir: string, vault: TokenVault): Promise<KioskCore> {
  return compose({ dataDir: dir, platformUrl: 'http://127.0.0.1:9', relay: null, vault, training: null });
}

describe('the manager PIN over the real keychain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-pin-keychain-'));
  const vault = new KeytarVault({ profile: PROFILE });
  after(async () => {
    if (problem === null) for (const name of SECRET_NAMES) await vault.delete(name);
    rmSync(dir, { recursive: true, force: true });
  });

  test('issue 12: the first PIN stores its pepper in the keychain, and the PIN still verifies after a restart', { skip }, async () => {
    const first = await core(dir, vault);
    try {
      assert.ok((await first.api.setPin({ newPin: PIN })).ok);
      const pepper = await vault.get('pin_pepper');
      assert.match(pepper ?? '', /^[0-9a-f]{64}$/, 'a 32-byte pepper, as hex, in the keychain');
      assert.ok(first.secrets().includes(pepper as string), 'and in the logger secret list');
    } finally {
      await first.stop();
    }
    const second = await core(dir, new KeytarVault({ profile: PROFILE }));
    try {
      assert.ok((await second.api.verifyPin({ pin: PIN })).ok, 'the pepper outlives the process');
      const wrong = await second.api.verifyPin({ pin: '0000' });
      assert.equal(wrong.ok, false);
      assert.equal(!wrong.ok && wrong.error.code, 'wrong_pin');
    } finally {
      await second.stop();
    }
  });

  test('issue 12: the keychain unreachable when the PIN is checked: keychain_unavailable, never accepted', { skip }, async () => {
    const unreachable = new KeytarVault({ profile: PROFILE, loadKeytar: () => Promise.reject(new Error('the keychain module is gone')) });
    const offline = await core(dir, unreachable);
    try {
      const answer = await offline.api.verifyPin({ pin: PIN });
      assert.equal(answer.ok, false);
      assert.equal(!answer.ok && answer.error.code, 'keychain_unavailable');
      const settings = await offline.api.updateSettings({ pin: PIN, patch: { storeName: 'Not without the keychain' } });
      assert.equal(!settings.ok && settings.error.code, 'keychain_unavailable', 'a PIN-guarded action is refused too');
      const change = await offline.api.setPin({ newPin: '1111', currentPin: PIN });
      assert.equal(!change.ok && change.error.code, 'keychain_unavailable');
    } finally {
      await offline.stop();
    }
  });

  test('issue 12: the pepper deleted from the keychain: keychain_unavailable with what to do; the PIN is not forgotten', { skip }, async () => {
    const stored = await vault.get('pin_pepper');
    assert.ok(stored);
    await vault.delete('pin_pepper');
    try {
      const lost = await core(dir, new KeytarVault({ profile: PROFILE }));
      try {
        const answer = await lost.api.verifyPin({ pin: PIN });
        assert.equal(answer.ok, false);
        assert.equal(!answer.ok && answer.error.code, 'keychain_unavailable');
        assert.match(!answer.ok ? answer.error.message : '', /no longer in the keychain.*Resetting a kiosk/);
        const view = await lost.api.getSettings({});
        assert.ok(view.ok && view.value.hasPin, 'a keychain kiosk never forgets its PIN on its own');
        assert.equal(await vault.get('pin_pepper'), null, 'no new pepper was made in its place');
      } finally {
        await lost.stop();
      }
    } finally {
      await vault.set('pin_pepper', stored);
    }
    const restored = await core(dir, new KeytarVault({ profile: PROFILE }));
    try {
      assert.ok((await restored.api.verifyPin({ pin: PIN })).ok, 'the keychain restored, the PIN works again');
    } finally {
      await restored.stop();
    }
  });
});
