// issue 4, token vault: the keychain through keytar behind TokenVault; a clear error when there is no keychain; memory
// only in training mode. These tests use fake keytars; test/integration/core/keychain.test.ts uses the real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SECRET_NAMES, VaultUnavailableError } from '../../../../electron/core/ports.ts';
import { MemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { KEYCHAIN_SERVICE, KeytarVault, type KeytarLike } from '../../../../electron/core/vault/keytar-vault.ts';
import { openVault } from '../../../../electron/core/vault/open-vault.ts';

const TOKEN = 'TEST-4137214925436563-091014-0123456789abcdef0123456789abcdef-1234567890';

/** A keytar whose entries live in a Map keyed "service/account"; `fail` makes every call reject (or throw) with it. */
function fakeKeytar(fail?: { message: string; sync?: boolean }) {
  const entries = new Map<string, string>();
  const calls: string[] = [];
  const act = <T>(name: string, fn: () => T): Promise<T> => {
    calls.push(name);
    if (fail?.sync) throw new Error(fail.message);
    return fail ? Promise.reject(new Error(fail.message)) : Promise.resolve(fn());
  };
  const keytar: KeytarLike = {
    getPassword: (service, account) => act('get', () => entries.get(`${service}/${account}`) ?? null),
    setPassword: (service, account, password) => act('set', () => void entries.set(`${service}/${account}`, password)),
    deletePassword: (service, account) => act('delete', () => entries.delete(`${service}/${account}`)),
  };
  return { keytar, entries, calls };
}

const NO_DBUS = 'Cannot autolaunch D-Bus without X11 $DISPLAY';

test('MemoryVault keeps each secret until it is deleted, and says it is memory', async () => {
  const vault = new MemoryVault();
  assert.equal(vault.kind, 'memory');
  for (const name of SECRET_NAMES) assert.equal(await vault.get(name), null);
  await vault.set('access_token', TOKEN);
  await vault.set('client_secret', 'cs-1');
  await vault.set('client_secret', 'cs-2');
  assert.equal(await vault.get('access_token'), TOKEN);
  assert.equal(await vault.get('client_secret'), 'cs-2');
  assert.equal(await vault.get('refresh_token'), null);
  await vault.delete('access_token');
  await vault.delete('access_token');
  assert.equal(await vault.get('access_token'), null);
  await assert.rejects(vault.set('refresh_token', ''), TypeError);
});

test('MemoryVaults do not share secrets', async () => {
  const a = new MemoryVault();
  await a.set('access_token', TOKEN);
  assert.equal(await new MemoryVault().get('access_token'), null);
});

test('KeytarVault stores one account per secret under the kiosk service, suffixed by the profile', async () => {
  const { keytar, entries } = fakeKeytar();
  const plain = new KeytarVault({ loadKeytar: async () => keytar });
  const profiled = new KeytarVault({ loadKeytar: async () => keytar, profile: 'test-1' });
  assert.equal(plain.kind, 'keychain');
  await plain.set('access_token', 'plain');
  await profiled.set('access_token', 'profiled');
  assert.deepEqual([...entries.keys()].sort(), [`${KEYCHAIN_SERVICE}/access_token`, `${KEYCHAIN_SERVICE}/access_token@test-1`]);
  assert.equal(await plain.get('access_token'), 'plain');
  assert.equal(await profiled.get('access_token'), 'profiled');
  await profiled.delete('access_token');
  await profiled.delete('access_token');
  assert.equal(await profiled.get('access_token'), null);
  assert.equal(await plain.get('access_token'), 'plain');
  assert.throws(() => new KeytarVault({ profile: 'a b' }), TypeError);
});

test('KeytarVault loads keytar on first use only, and once', async () => {
  const { keytar } = fakeKeytar();
  let loads = 0;
  const vault = new KeytarVault({ loadKeytar: async () => (loads++, keytar) });
  assert.equal(loads, 0);
  await vault.get('access_token');
  await vault.set('refresh_token', 'r');
  assert.equal(loads, 1);
});

test('no Secret Service: every call rejects with VaultUnavailableError that says what to install', async () => {
  for (const message of [NO_DBUS, 'Could not connect: No such file or directory', 'The name org.freedesktop.secrets was not provided by any .service files']) {
    const { keytar } = fakeKeytar({ message });
    const vault = new KeytarVault({ loadKeytar: async () => keytar });
    for (const call of [vault.get('access_token'), vault.set('access_token', TOKEN), vault.delete('access_token')]) {
      await assert.rejects(call, (error: unknown) => {
        assert.ok(error instanceof VaultUnavailableError);
        assert.equal(error.code, 'keychain_unavailable');
        assert.ok(error.message.startsWith('No keychain service is reachable ('), error.message);
        assert.ok(error.message.includes(message), error.message);
        assert.match(error.message, /sudo apt-get install gnome-keyring dbus-x11/);
        assert.match(error.message, /Windows and macOS/);
        return true;
      });
    }
  }
});

test('a locked keyring is explained as locked, with what to do', async () => {
  const { keytar } = fakeKeytar({ message: 'Cannot create an item in a locked collection' });
  const vault = new KeytarVault({ loadKeytar: async () => keytar });
  await assert.rejects(vault.set('client_secret', 'cs'), (error: Error) => {
    assert.ok(error instanceof VaultUnavailableError);
    assert.match(error.message, /^The keychain is locked, so the kiosk could not store the client_secret \(Cannot create an item in a locked collection\)\. Unlock it/);
    return true;
  });
});

test('keytar failing synchronously (bad arguments) still rejects with VaultUnavailableError', async () => {
  const { keytar } = fakeKeytar({ message: 'Account is required.', sync: true });
  const vault = new KeytarVault({ loadKeytar: async () => keytar });
  await assert.rejects(vault.get('access_token'), VaultUnavailableError);
});

test('a keytar that cannot be loaded is a VaultUnavailableError that says how to build it, not a crash', async () => {
  let loads = 0;
  const vault = new KeytarVault({
    loadKeytar: async () => {
      loads += 1;
      throw new Error("Cannot find module '../build/Release/keytar.node'");
    },
  });
  await assert.rejects(vault.get('access_token'), (error: Error) => {
    assert.ok(error instanceof VaultUnavailableError);
    assert.match(error.message, /^The keychain module \(keytar\) could not be loaded \(Cannot find module/);
    assert.match(error.message, /libsecret-1-dev/);
    return true;
  });
  // A failed load is not cached: installing keytar and trying again works without a restart.
  await assert.rejects(vault.get('access_token'), VaultUnavailableError);
  assert.equal(loads, 2);
});

test('a keychain that never answers fails after the timeout instead of hanging the kiosk', async () => {
  const keytar: KeytarLike = {
    getPassword: () => new Promise(() => {}),
    setPassword: () => new Promise(() => {}),
    deletePassword: () => new Promise(() => {}),
  };
  const vault = new KeytarVault({ loadKeytar: async () => keytar, timeoutMs: 30 });
  await assert.rejects(vault.get('access_token'), (error: Error) => {
    assert.ok(error instanceof VaultUnavailableError);
    assert.match(error.message, /did not answer when asked to read the access_token \(no answer within 0 s\)/);
    return true;
  });
});

test('no error message carries the secret, even when the keychain echoes it', async () => {
  const { keytar } = fakeKeytar({ message: `Cannot store "${TOKEN}": the collection is locked` });
  const vault = new KeytarVault({ loadKeytar: async () => keytar });
  await assert.rejects(vault.set('access_token', TOKEN), (error: Error) => {
    assert.ok(error instanceof VaultUnavailableError);
    assert.ok(!error.message.includes(TOKEN), error.message);
    assert.ok(!String(error.stack).includes(TOKEN));
    assert.equal(error.cause, undefined, 'the original error holds the token, so it is not kept');
    assert.match(error.message, /\[redacted\]/);
    return true;
  });
});

test('openVault uses the keychain when the probe answers, with no warning', async () => {
  const { keytar, calls } = fakeKeytar();
  for (const training of [false, true]) {
    const opened = await openVault({ training, loadKeytar: async () => keytar });
    assert.equal(opened.vault.kind, 'keychain');
    assert.equal(opened.warning, null);
  }
  assert.deepEqual(calls, ['get', 'get'], 'the probe is one harmless read');
});

test('openVault outside training mode rejects with the clear error when there is no keychain', async () => {
  const { keytar } = fakeKeytar({ message: NO_DBUS });
  await assert.rejects(openVault({ training: false, loadKeytar: async () => keytar }), (error: Error) => {
    assert.ok(error instanceof VaultUnavailableError);
    assert.match(error.message, /No keychain service is reachable \(Cannot autolaunch D-Bus without X11 \$DISPLAY\)\. On Linux, install and unlock a Secret Service/);
    return true;
  });
});

test('openVault in training mode falls back to memory and says so, with the reason', async () => {
  const { keytar } = fakeKeytar({ message: NO_DBUS });
  const { vault, warning } = await openVault({ training: true, loadKeytar: async () => keytar });
  assert.equal(vault.kind, 'memory');
  assert.ok(warning?.startsWith('Training mode: tokens are kept in memory because no keychain is available: No keychain service is reachable'), warning ?? '');
  await vault.set('access_token', TOKEN);
  assert.equal(await vault.get('access_token'), TOKEN);
});

test('openVault falls back in training mode when keytar itself cannot be loaded, and refuses otherwise', async () => {
  const loadKeytar = async (): Promise<KeytarLike> => {
    throw new Error('keytar.node: invalid ELF header');
  };
  assert.equal((await openVault({ training: true, loadKeytar })).vault.kind, 'memory');
  await assert.rejects(openVault({ training: false, loadKeytar }), VaultUnavailableError);
});
