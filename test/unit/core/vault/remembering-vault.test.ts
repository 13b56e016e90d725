// issue 12: the core's secret list for the logger comes from every value that passes through its vault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { VaultUnavailableError } from '../../../../electron/core/ports.ts';
import { KeytarVault } from '../../../../electron/core/vault/keytar-vault.ts';
import { MemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { RememberingVault } from '../../../../electron/core/vault/remembering-vault.ts';

test('values read and written are known at once; a deleted one stays known; misses add nothing', async () => {
  const inner = new MemoryVault();
  await inner.set('refresh_token', 'TG-stored-before-start-000000');
  const vault = new RememberingVault(inner);
  assert.equal(vault.kind, 'memory');
  assert.deepEqual(vault.known(), []);
  assert.equal(await vault.get('access_token'), null);
  assert.equal(await vault.get('refresh_token'), 'TG-stored-before-start-000000');
  await vault.set('access_token', 'TEST-new-token-0000000000000000');
  assert.deepEqual(vault.known(), ['TG-stored-before-start-000000', 'TEST-new-token-0000000000000000']);
  await vault.delete('access_token');
  assert.equal(await inner.get('access_token'), null, 'the wrapped vault did the delete');
  assert.ok(vault.known().includes('TEST-new-token-0000000000000000'));
});

test('a value is known even when the keychain refuses to store it (its error could echo it into a log line)', async () => {
  const vault = new RememberingVault(new KeytarVault({ loadKeytar: () => Promise.reject(new Error('no keytar')) }));
  assert.equal(vault.kind, 'keychain');
  await assert.rejects(vault.set('client_secret', 'a-client-secret-value'), VaultUnavailableError);
  assert.deepEqual(vault.known(), ['a-client-secret-value']);
});

test('the list is bounded; the values used last are kept', async () => {
  const vault = new RememberingVault(new MemoryVault(), 3);
  for (const n of [1, 2, 3]) await vault.set('access_token', `token-${n}`);
  await vault.get('access_token');
  await vault.set('refresh_token', 'token-4');
  assert.deepEqual(vault.known(), ['token-2', 'token-3', 'token-4']);
  await vault.set('client_secret', 'token-2');
  await vault.set('relay_key', 'token-5');
  assert.deepEqual(vault.known(), ['token-4', 'token-2', 'token-5']);
});
