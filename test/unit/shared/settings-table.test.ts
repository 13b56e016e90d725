// issue 28 "One settings table" (shared/settings-table.ts): the patch schema, the stored schema, the settings in force,
// the screens' view and the PIN list all derive from the table's rows, so a new setting is one row. Checked on the
// kiosk's own table (every row appears in each) and on a table of this test's own (a row added here appears in all of
// them, with no other code written for it).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import {
  SECRET_SETTINGS,
  SETTINGS,
  SETTINGS_BEHIND_PIN,
  auditedPatch,
  patchedSettings,
  secretSetting,
  secretSettings,
  setting,
  settingsBehindPin,
  settingsInForce,
  type SettingsInForceOf,
  type SettingsPatchOf,
  type SettingsViewOf,
  type StoredSettingsOf,
} from '../../../shared/settings-table.ts';
import { patchSchemaOf, settingsPatchSchema, storedSchemaOf, storedSettingsSchema } from '../../../shared/settings-schemas.ts';
import { kioskInputs, type KioskSettings } from '../../../shared/kiosk-api.ts';
import { FIXED_SETTING_DEFAULTS } from '../../support/setting-defaults.ts';

/** Compile-time: `A` and `B` are the same type (the assignment of `true` fails to compile otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const context = { posId: 'CAJA-1', relayUrl: 'http://127.0.0.1:40001', countryCode: 'CL' as const };
const shapeKeys = (schema: z.ZodType): string[] => Object.keys((schema as unknown as z.ZodObject).shape).sort();
const names = Object.keys(SETTINGS);
const publicNames = names.filter((name) => !SETTINGS[name as keyof typeof SETTINGS].secret);

describe("the kiosk's table", () => {
  test('every setting is in the patch; every public one in the stored schema and in force; the secrets in neither', () => {
    assert.deepEqual(shapeKeys(settingsPatchSchema), [...names].sort());
    assert.equal(kioskInputs.updateSettings.shape.patch, settingsPatchSchema, 'the contract takes the table\'s patch');
    assert.deepEqual(shapeKeys(storedSettingsSchema), [...publicNames].sort());
    assert.deepEqual(Object.keys(settingsInForce(SETTINGS, {}, context)).sort(), [...publicNames].sort());
    assert.deepEqual(SECRET_SETTINGS, ['relayKey']);
    assert.ok(!publicNames.includes('relayKey'));
  });

  test('nothing stored: each row\'s default, the launch\'s where the row takes it from the launch', () => {
    assert.deepEqual(settingsInForce(SETTINGS, {}, context), {
      ...FIXED_SETTING_DEFAULTS,
      posId: 'CAJA-1',
      language: 'es-CL',
      relayUrl: 'http://127.0.0.1:40001',
      countryCode: null,
    });
    assert.equal(settingsInForce(SETTINGS, {}, { ...context, countryCode: null }).language, 'es-AR');
    // Every default fits its own row's patch schema (a default the manager could not set back is a bug).
    for (const name of publicNames) {
      const value = (settingsInForce(SETTINGS, {}, context) as Record<string, unknown>)[name];
      if (value === null) continue;
      assert.ok(settingsPatchSchema.safeParse({ [name]: value }).success, `${name}'s default fits its schema`);
    }
  });

  test('what the screens see is the public settings, a flag per secret and two facts: derived, not listed', () => {
    const same: Same<keyof KioskSettings, Exclude<keyof typeof SETTINGS, 'relayKey'> | 'relayKeySet' | 'platformUrl' | 'hasPin'> = true;
    const sound: Same<KioskSettings['soundOnPayment'], boolean> = true;
    const country: Same<KioskSettings['countryCode'], 'AR' | 'BR' | 'CL' | 'UY' | null> = true;
    assert.ok(same && sound && country);
  });

  test('changing any setting today takes the manager PIN (issue 12): the Settings screen is behind one gate', () => {
    assert.deepEqual(SETTINGS_BEHIND_PIN, names);
  });

  test('a stored row is read back as stored; one that does not fit is refused with the field named, never defaulted', () => {
    // What the kiosk stored before the table (including a store name as the platform named it, issue 16).
    const before = { posId: 'CAJA-2', qrMode: 'static', expiration: 'PT10M', language: 'en', relayUrl: null, countryCode: 'UY', storeName: 'Sucursal\tCentro', printerName: 'EPSON TM-T20', soundOnPayment: false, updateFeedUrl: 'https://updates.example/kiosk/', maintenanceWindow: '22:00-02:00' };
    assert.deepEqual(storedSettingsSchema.parse(before), before);
    assert.deepEqual(storedSettingsSchema.parse({ ...before, retired: 1, relayKey: 'never-stored' }), before, 'unknown names and secrets are dropped');
    const damaged = storedSettingsSchema.safeParse({ soundOnPayment: 'yes' });
    assert.ok(!damaged.success);
    assert.deepEqual(damaged.error.issues[0]?.path, ['soundOnPayment']);
  });

  test('a patch stores what it sets; null forgets or is kept, as the row says; a secret is never stored', () => {
    assert.deepEqual(patchedSettings(SETTINGS, { storeName: 'A', relayUrl: 'https://r.example' }, { storeName: null, relayUrl: null, soundOnPayment: false, relayKey: 'k'.repeat(12) }), {
      relayUrl: null,
      soundOnPayment: false,
    });
  });
});

// A table of the test's own: a setting the kiosk does not have (a tip on the card terminal), one with a default from
// the launch, one whose null is a choice, and a secret. Nothing else is written for them.
const TEST_TABLE = {
  tipPercent: setting({ value: ({ z }) => z.number().int().min(0).max(30), default: 10, needsPin: false }),
  terminalName: setting({ value: ({ printable }) => printable(20), nullable: 'forgets', default: (launch) => `T-${launch.posId}`, needsPin: true }),
  hostUrl: setting({ value: ({ z }) => z.url(), nullable: 'stored', default: (launch) => launch.relayUrl, needsPin: true }),
  terminalKey: secretSetting({ value: ({ z }) => z.string().min(8), nullable: 'forgets', needsPin: true }),
};

describe('a table of the test\'s own derives everything', () => {
  const patch = patchSchemaOf(TEST_TABLE);
  const stored = storedSchemaOf(TEST_TABLE);

  test('the types: patch, stored, in force and the view (with the secret only as a flag)', () => {
    const p: Same<SettingsPatchOf<typeof TEST_TABLE>, { tipPercent?: number; terminalName?: string | null; hostUrl?: string | null; terminalKey?: string | null }> = true;
    const s: Same<StoredSettingsOf<typeof TEST_TABLE>, { tipPercent?: number; terminalName?: string | null; hostUrl?: string | null }> = true;
    const f: Same<SettingsInForceOf<typeof TEST_TABLE>, { tipPercent: number; terminalName: string | null; hostUrl: string | null }> = true;
    const v: Same<SettingsViewOf<typeof TEST_TABLE>, { tipPercent: number; terminalName: string | null; hostUrl: string | null } & { terminalKeySet: boolean }> = true;
    assert.ok(p && s && f && v);
  });

  test('the patch schema takes each row by its own rule and nothing else', () => {
    assert.deepEqual(shapeKeys(patch), ['hostUrl', 'terminalKey', 'terminalName', 'tipPercent']);
    assert.deepEqual(patch.parse({ tipPercent: 15, terminalName: '  Caja  ', terminalKey: null }), { tipPercent: 15, terminalName: 'Caja', terminalKey: null });
    assert.ok(!patch.safeParse({ tipPercent: 31 }).success, 'out of the row\'s range');
    assert.ok(!patch.safeParse({ tipPercent: null }).success, 'null is no value of a row that is not nullable');
    assert.ok(!patch.safeParse({ tipPercentage: 15 }).success, 'a name no row has');
    assert.ok(!patch.safeParse({ terminalKey: 'short' }).success);
  });

  test('the stored schema: the public rows only, a damaged value refused', () => {
    assert.deepEqual(shapeKeys(stored), ['hostUrl', 'terminalName', 'tipPercent']);
    assert.deepEqual(stored.parse({ tipPercent: 5, hostUrl: null, terminalKey: 'dropped-secret' }), { tipPercent: 5, hostUrl: null });
    assert.ok(!stored.safeParse({ tipPercent: 'five' }).success);
  });

  test('in force: stored choices over defaults (null too where null is a choice); the PIN list and the secrets', () => {
    assert.deepEqual(settingsInForce(TEST_TABLE, {}, context), { tipPercent: 10, terminalName: 'T-CAJA-1', hostUrl: 'http://127.0.0.1:40001' });
    assert.deepEqual(settingsInForce(TEST_TABLE, { tipPercent: 0, hostUrl: null }, context), { tipPercent: 0, terminalName: 'T-CAJA-1', hostUrl: null });
    assert.deepEqual(settingsBehindPin(TEST_TABLE), ['terminalName', 'hostUrl', 'terminalKey']);
    assert.deepEqual(secretSettings(TEST_TABLE), ['terminalKey']);
    assert.deepEqual(auditedPatch(TEST_TABLE, { tipPercent: 5, terminalKey: 'secret-key-1', hostUrl: undefined }), { tipPercent: 5, terminalKey: 'replaced' });
    assert.deepEqual(auditedPatch(TEST_TABLE, { terminalKey: null }), { terminalKey: 'forgotten' });
    assert.deepEqual(patchedSettings(TEST_TABLE, { terminalName: 'X', tipPercent: 5 }, { terminalName: null, hostUrl: null, terminalKey: 'secret-key-1' }), { tipPercent: 5, hostUrl: null });
  });
});
