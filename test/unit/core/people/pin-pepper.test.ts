// issue 12 "data at rest": the manager PIN's hash is keyed with a pepper kept in the vault (the OS keychain), so a copied
// database alone does not give the PIN to an offline search. Records from before the pepper still verify and are
// re-hashed with it on the first correct PIN; without the vault no PIN is ever accepted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, scryptSync } from 'node:crypto';
import { MAX_FAILED_ATTEMPTS, SCRYPT_PARAMS, type PinRecord, type PinStore } from '../../../../electron/core/people/pin-record.ts';
import { ManagerPin, PinPepperMissingError } from '../../../../electron/core/people/pin.ts';
import { hashPin } from '../../../../electron/core/people/pin-hash.ts';
import { PIN_PEPPER_BYTES, PepperedPin, PinPepper } from '../../../../electron/core/people/pin-pepper.ts';
import { VaultUnavailableError } from '../../../../electron/core/ports.ts';
import { MemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { KeytarVault } from '../../../../electron/core/vault/keytar-vault.ts';

function store() {
  let stored: PinRecord | null = null;
  const pinStore: PinStore = {
    load: () => (stored === null ? null : structuredClone(stored)),
    save: (record) => void (stored = structuredClone(record)),
  };
  return { pinStore, record: () => stored, setRecord: (r: PinRecord | null) => void (stored = r) };
}

const clock = { now: () => 1_726_000_000_000 };
const scryptOf = (secret: string | Buffer, record: PinRecord) =>
  scryptSync(secret, Buffer.from(record.salt, 'base64'), record.params.keylen, { N: record.params.N, r: record.params.r, p: record.params.p }).toString('base64');

function peppered(vault = new MemoryVault()) {
  const s = store();
  const pin = new PepperedPin(new ManagerPin(s.pinStore, clock), new PinPepper(vault));
  return { ...s, pin, vault };
}

/** A vault whose keychain cannot be reached: the real KeytarVault, its native module failing to load. */
const unreachableVault = () => new KeytarVault({ loadKeytar: () => Promise.reject(new Error('keytar was not built')) });

test('the first PIN makes a 32-byte pepper in the vault; the record says it is peppered and holds neither PIN nor pepper', async () => {
  const { pin, vault, record } = peppered();
  assert.equal(await vault.get('pin_pepper'), null);
  assert.deepEqual(await pin.set('48151623'), { ok: true });
  const pepper = await vault.get('pin_pepper');
  assert.ok(pepper);
  assert.match(pepper, /^[0-9a-f]+$/);
  assert.equal(Buffer.from(pepper, 'hex').length, PIN_PEPPER_BYTES);
  const saved = record();
  assert.ok(saved);
  assert.equal(saved.peppered, true);
  const text = JSON.stringify(saved);
  assert.ok(!text.includes('48151623') && !text.includes(pepper));
  assert.deepEqual(await pin.verify('48151623'), { ok: true });
});

test('a peppered record cannot be verified by scrypt alone: a copied database without the keychain does not check a PIN guess', async () => {
  const { pin, vault, record } = peppered();
  await pin.set('2468');
  const saved = record() as PinRecord;
  // The offline search a stolen database allows without the pepper: scrypt of every candidate PIN with the stored salt.
  assert.notEqual(scryptOf('2468', saved), saved.hash, 'the right PIN does not match without the pepper');
  // With the pepper, the construction pin.ts documents gives the stored hash exactly.
  const pepper = (await vault.get('pin_pepper')) as string;
  assert.equal(scryptOf(createHmac('sha256', Buffer.from(pepper, 'utf8')).update('2468').digest(), saved), saved.hash);
});

test('a different pepper refuses the right PIN (and counts it as a wrong one)', async () => {
  const { pin, vault, record, pinStore } = peppered();
  await pin.set('2468');
  const other = new MemoryVault();
  await other.set('pin_pepper', 'f'.repeat(64));
  const sameRecordOtherPepper = new PepperedPin(new ManagerPin(pinStore, clock), new PinPepper(other));
  assert.deepEqual(await sameRecordOtherPepper.verify('2468'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 1 });
  assert.equal(record()?.failedAttempts, 1);
  assert.notEqual(await vault.get('pin_pepper'), 'f'.repeat(64));
  // The core says the same with any other key.
  assert.equal((await new ManagerPin(pinStore, clock).verify('2468', Buffer.alloc(PIN_PEPPER_BYTES, 1))).ok, false);
});

test('a record from before the pepper still verifies, and the first correct PIN re-hashes it with the pepper', async () => {
  const { pin, vault, record, setRecord } = peppered();
  const legacy = hashPin('9876');
  delete (legacy as { peppered?: boolean }).peppered;
  setRecord(legacy);
  assert.equal(scryptOf('9876', legacy), legacy.hash, 'the old record is scrypt of the PIN alone');

  // A wrong PIN does not migrate it.
  assert.deepEqual(await pin.verify('0000'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 1 });
  assert.equal(record()?.peppered, undefined);
  assert.equal(record()?.hash, legacy.hash);

  assert.deepEqual(await pin.verify('9876'), { ok: true });
  const migrated = record() as PinRecord;
  assert.equal(migrated.peppered, true);
  assert.notEqual(migrated.salt, legacy.salt, 'a fresh salt with the new hash');
  assert.notEqual(scryptOf('9876', migrated), migrated.hash, 'no longer checkable without the pepper');
  assert.equal(migrated.failedAttempts, 0);
  assert.deepEqual(migrated.params, { ...SCRYPT_PARAMS });
  assert.ok(await vault.get('pin_pepper'));
  assert.deepEqual(await pin.verify('9876'), { ok: true });
  assert.equal((await pin.verify('9875')).ok, false);
});

test('concurrent first uses make one pepper: both PINs checked against the same key', async () => {
  const { pin, vault, setRecord } = peppered();
  setRecord({ ...hashPin('1357'), peppered: false });
  const [a, b] = await Promise.all([pin.verify('1357'), pin.verify('1357')]);
  assert.deepEqual([a, b], [{ ok: true }, { ok: true }]);
  const pepper = await vault.get('pin_pepper');
  assert.ok(pepper);
  assert.deepEqual(await pin.verify('1357'), { ok: true }, 'the record re-hashed by one call verifies with the pepper the vault kept');
  assert.equal(await vault.get('pin_pepper'), pepper);
});

test('no keychain when the PIN is checked: keychain_unavailable, never accepted, nothing counted', async () => {
  const { pin, record, pinStore } = peppered();
  await pin.set('2468');
  const before = structuredClone(record());
  const offline = new PepperedPin(new ManagerPin(pinStore, clock), new PinPepper(unreachableVault()));
  for (const attempt of ['2468', '0000']) {
    await assert.rejects(offline.verify(attempt), (error: unknown) => error instanceof VaultUnavailableError && error.code === 'keychain_unavailable');
  }
  await assert.rejects(offline.set('1111', '2468'), VaultUnavailableError);
  assert.deepEqual(record(), before, 'no attempt counted, no new PIN');
});

test('a peppered PIN whose pepper is gone from the vault is refused with a clear error, and no new pepper is made', async () => {
  const { pin, vault, record } = peppered();
  await pin.set('2468');
  await vault.delete('pin_pepper');
  const before = structuredClone(record());
  await assert.rejects(pin.verify('2468'), (error: unknown) => error instanceof PinPepperMissingError && error.code === 'keychain_unavailable' && /Resetting a kiosk/.test(error.message));
  await assert.rejects(pin.set('1111', '2468'), PinPepperMissingError);
  assert.equal(await vault.get('pin_pepper'), null, 'a new pepper could never match the stored PIN');
  assert.deepEqual(record(), before);
  // The core refuses a peppered record without its pepper the same way.
  await assert.rejects(new ManagerPin({ load: () => structuredClone(before), save: () => undefined }, clock).verify('2468'), PinPepperMissingError);
});

test('training without a keychain: after a restart (a new memory vault) the PIN set before is forgotten, not unverifiable', async () => {
  const { pin, pinStore, record, setRecord } = peppered();
  await pin.set('2468');
  const restarted = new PepperedPin(new ManagerPin(pinStore, clock), new PinPepper(new MemoryVault()));
  assert.equal(await restarted.forgetIfPepperLost(() => setRecord(null)), true);
  assert.equal(record(), null);
  assert.equal(restarted.isSet(), false);
  assert.deepEqual(await restarted.set('1111'), { ok: true }, 'a manager sets a new PIN');
  assert.deepEqual(await restarted.verify('1111'), { ok: true });
});

test('nothing is forgotten while the memory vault still holds the pepper, nor for a record from before the pepper', async () => {
  const { pin, record, setRecord } = peppered();
  await pin.set('2468');
  assert.equal(await pin.forgetIfPepperLost(() => setRecord(null)), false);
  assert.ok(record());
  const legacy = peppered();
  legacy.setRecord({ ...hashPin('2468'), peppered: false });
  const restarted = new PepperedPin(new ManagerPin(legacy.pinStore, clock), new PinPepper(new MemoryVault()));
  assert.equal(await restarted.forgetIfPepperLost(() => legacy.setRecord(null)), false);
  assert.deepEqual(await restarted.verify('2468'), { ok: true });
});
