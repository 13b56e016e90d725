import type { z } from 'zod';
import type { printableText } from './schemas/common.ts';
import { COUNTRY_CODES, DISCOUNT_METHOD_TYPES, LANGUAGES, QR_MODES, type CountryCode, type Language } from './kiosk-names.ts';
import { DECIMAL_STRING } from './money.ts';
import { MAX_PAYMENT_DISCOUNTS, type PaymentDiscountRule } from './payment-discounts.ts';

// issue 28 "One settings table": each kiosk setting is written once, here, with its schema, its default, whether
// changing it takes the manager PIN and whether it is a secret. Everything else derives from this table: the
// `updateSettings` patch and the schema stored rows are read back with (./settings-schemas.ts), the settings in force
// (settingsInForce), the `KioskSettings` the screens get (./settings-api.ts) and the list of what needs the PIN.
// A new setting is one row here plus its screen and its words.
//
// No zod at run time in this file (only `import type`): the renderer may import the table and its plain derivations
// without putting the validator in the counter display's bundle (issue 5; test/unit/renderer/bundle-budget.test.ts).
// A row's schema is therefore a function of the toolkit ./settings-schemas.ts hands it.

/** What a row's schema is built with (./settings-schemas.ts passes zod and the shared text rule). */
export interface SchemaKit {
  z: typeof z;
  printable: typeof printableText;
}

/**
 * What a default may depend on: the launch's point of sale and relay (which change from launch to launch, so they are
 * never frozen into the store) and the country in force.
 */
export interface DefaultsContext {
  posId: string;
  relayUrl: string | null;
  countryCode: CountryCode | null;
}

/**
 * What `null` in a patch means for a nullable setting: `forgets` removes the stored choice (back to the default,
 * which is then null too); `stored` keeps null as a choice of its own (the relay URL: "no relay", which a launch's relay
 * must not override).
 */
export type NullRule = 'forgets' | 'stored';

interface RowBase<S extends z.ZodType> {
  /** The value as a manager sends it in `updateSettings` (validated where it enters main, style guide 4). */
  value: (kit: SchemaKit) => S;
  /** Absent: null is no value of this setting. */
  nullable?: NullRule;
  /** issue 12: whether changing it takes the manager PIN. */
  needsPin: boolean;
}

/** A setting the screens read back: stored in SQLite (settings key kiosk_settings), shown in `KioskSettings`. */
export interface PublicRow<S extends z.ZodType = z.ZodType, D = unknown> extends RowBase<S> {
  secret: false;
  /** Where the patch's rule is stricter than what earlier versions stored: stored rows are read with this one, so none is lost. */
  stored?: (kit: SchemaKit) => z.ZodType;
  /** Used while nothing is stored (a function: a default that depends on the launch or the country in force). */
  default: D | ((context: DefaultsContext) => D);
}

/**
 * A secret (the relay key): written by the manager, kept in the vault, never stored in the database, never sent back
 * to the renderer; the screens only see `<name>Set`, whether one is kept.
 */
export interface SecretRow<S extends z.ZodType = z.ZodType> extends RowBase<S> {
  secret: true;
}

export type SettingRow = PublicRow | SecretRow;
export type SettingsTable = Record<string, SettingRow>;

/** A public row whose default is checked against its schema (a default of the wrong type does not compile). */
export function setting<S extends z.ZodType, const D extends z.output<S> | null, const N extends NullRule | undefined = undefined>(
  row: { value: (kit: SchemaKit) => S; nullable?: N; needsPin: boolean; stored?: (kit: SchemaKit) => z.ZodType; default: D | ((context: DefaultsContext) => D) },
): PublicRow<S, D> & { nullable: N } {
  return { ...row, secret: false } as PublicRow<S, D> & { nullable: N };
}

export function secretSetting<S extends z.ZodType, const N extends NullRule | undefined = undefined>(
  row: { value: (kit: SchemaKit) => S; nullable?: N; needsPin: boolean },
): SecretRow<S> & { nullable: N } {
  return { ...row, secret: true } as SecretRow<S> & { nullable: N };
}

/**
 * A name a manager may clear (null forgets it; none by default): printable text up to `max` as sent, while stored rows
 * are read back with the looser rule of earlier versions (any text of 1 to `max`), so none is lost.
 */
function clearableText(max: number) {
  return setting({ value: ({ printable }) => printable(max), stored: ({ z }) => z.string().min(1).max(max), nullable: 'forgets', default: null, needsPin: true });
}

/** issue 18: a maintenance window, "HH:MM-HH:MM" (24 h; the end before the start crosses midnight). */
export const MAINTENANCE_WINDOW_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** issue 5 "Languages": a kiosk with no language chosen speaks its country's. */
const LANGUAGE_BY_COUNTRY: Record<CountryCode, Language> = { AR: 'es-AR', CL: 'es-CL', UY: 'es-UY', BR: 'pt-BR' };

export const SETTINGS = {
  /** The point of sale orders name (config.qr.external_pos_id); the launch's (training: the sandbox seller's) by default. */
  posId: setting({ value: ({ z }) => z.string().min(1).max(128), default: (launch) => launch.posId, needsPin: true }),
  /** seed 4.3 */
  qrMode: setting({ value: ({ z }) => z.enum(QR_MODES), default: 'dynamic', needsPin: true }),
  /** ISO 8601 duration for new orders, e.g. PT5M (the core also checks 30 s to 3600 h). */
  expiration: setting({
    value: ({ z }) => z.string().regex(/^P/).max(32),
    stored: ({ z }) => z.string().min(1).max(32),
    default: 'PT5M',
    needsPin: true,
  }),
  language: setting({
    value: ({ z }) => z.enum(LANGUAGES),
    default: (context) => (context.countryCode ? LANGUAGE_BY_COUNTRY[context.countryCode] : 'es-AR'),
    needsPin: true,
  }),
  /** The relay the kiosk subscribes to; null: none. By default the launch's own (training: the embedded one). */
  relayUrl: setting({ value: ({ z }) => z.url(), nullable: 'stored', default: (launch) => launch.relayUrl, needsPin: true }),
  /** The kiosk's key at that relay: kept in the vault, never in the database, never shown again; null forgets it. */
  relayKey: secretSetting({ value: ({ z }) => z.string().min(8).max(256), nullable: 'forgets', needsPin: true }),
  /** The seller's country: sets the currency. Fixed by training (core settings/kiosk-settings.ts); chosen when connecting a real account. */
  countryCode: setting({ value: ({ z }) => z.enum(COUNTRY_CODES), default: null, needsPin: true }),
  /** The store's name as printed on receipts (the platform's store name, issue 16, is stored as it comes). */
  storeName: clearableText(64),
  /** The printer receipts go to silently (Electron); null: the system's default printer, or the print dialog. */
  printerName: clearableText(128),
  /** issue 15 "Outcomes full screen": a short chime when a payment lands (training too), unless the manager mutes it. */
  soundOnPayment: setting({ value: ({ z }) => z.boolean(), default: true, needsPin: true }),
  /**
   * issue 18: the generic update feed (electron-builder's latest-*.yml and installers), https:// (plain http:// only on
   * this machine); null: no automatic updates. issue 27: the screens get it with its password masked.
   */
  updateFeedUrl: setting({ value: ({ z }) => z.url(), nullable: 'forgets', default: null, needsPin: true }),
  /** issue 18: when an idle kiosk may install a downloaded update, "HH:MM-HH:MM" in the counter PC's local time. */
  maintenanceWindow: setting({
    value: ({ z }) => z.string().regex(MAINTENANCE_WINDOW_PATTERN, 'HH:MM-HH:MM'),
    default: '03:00-05:00',
    needsPin: true,
  }),
  /**
   * issue 29: the store's payment-method discounts (seed 2.7: up to 4, one per method), each a whole percentage or a
   * fixed amount off; sent as discounts.payment_methods by shared/payment-discounts.ts. Empty: none offered.
   */
  paymentDiscounts: setting({
    value: ({ z }) =>
      z
        .array(
          z.strictObject({
            type: z.enum(DISCOUNT_METHOD_TYPES),
            off: z.union([
              z.strictObject({ percent: z.number().int().min(1).max(99) }),
              z.strictObject({ amount: z.string().regex(DECIMAL_STRING, 'a decimal string like "10" or "10.50"').refine((a) => !/^0(\.00)?$/.test(a), 'above zero') }),
            ]),
          }),
        )
        .max(MAX_PAYMENT_DISCOUNTS)
        .refine((rules) => new Set(rules.map((rule) => rule.type)).size === rules.length, 'one discount per payment method'),
    default: [] as PaymentDiscountRule[],
    needsPin: true,
  }),
} satisfies SettingsTable;

// The types below derive from any table (test/unit/shared/settings-table.test.ts derives them from one of its own).

type SchemaOf<R> = R extends { value: (kit: SchemaKit) => infer S extends z.ZodType } ? S : never;
type NullOf<R> = R extends { nullable: NullRule } ? null : never;
type DefaultOf<R> = R extends { default: infer D } ? (D extends (context: DefaultsContext) => infer V ? V : D) : never;

export type PublicSettingName<T extends SettingsTable> = { [K in keyof T]: T[K] extends { secret: true } ? never : K }[keyof T] & string;
export type SecretSettingName<T extends SettingsTable> = { [K in keyof T]: T[K] extends { secret: true } ? K : never }[keyof T] & string;

/** The `updateSettings` patch: any setting (secrets too, write-only); absent: unchanged. */
export type SettingsPatchOf<T extends SettingsTable> = { [K in keyof T]?: z.output<SchemaOf<T[K]>> | NullOf<T[K]> };
/** What a manager set and nothing else; absent: the default. */
export type StoredSettingsOf<T extends SettingsTable> = { [K in PublicSettingName<T>]?: z.output<SchemaOf<T[K]>> | NullOf<T[K]> };
/** The settings in force: every public setting, the stored choice or the default. */
export type SettingsInForceOf<T extends SettingsTable> = { [K in PublicSettingName<T>]: z.output<SchemaOf<T[K]>> | NullOf<T[K]> | DefaultOf<T[K]> };
/** What the screens get: the settings in force, and for each secret only whether one is kept. */
export type SettingsViewOf<T extends SettingsTable> = SettingsInForceOf<T> & { [K in SecretSettingName<T> as `${K}Set`]: boolean };

export type SettingsPatch = SettingsPatchOf<typeof SETTINGS>;
export type StoredSettings = StoredSettingsOf<typeof SETTINGS>;
export type SettingsInForce = SettingsInForceOf<typeof SETTINGS>;

const rows = <T extends SettingsTable>(table: T) => Object.entries(table) as Array<[keyof T & string, SettingRow]>;

/** The settings changing which takes the manager PIN (issue 12), in the table's order. */
export function settingsBehindPin<T extends SettingsTable>(table: T): Array<keyof T & string> {
  return rows(table).filter(([, row]) => row.needsPin).map(([name]) => name);
}

/** The secrets: never stored in the database, never sent to the renderer, never written to the audit. */
export function secretSettings<T extends SettingsTable>(table: T): Array<SecretSettingName<T>> {
  return rows(table).filter(([, row]) => row.secret).map(([name]) => name as SecretSettingName<T>);
}

/** The settings in force: each stored choice (null too, where null is a choice), else the row's default. */
export function settingsInForce<T extends SettingsTable>(table: T, stored: Partial<Record<string, unknown>>, context: DefaultsContext): SettingsInForceOf<T> {
  const inForce: Record<string, unknown> = {};
  for (const [name, row] of rows(table)) {
    if (row.secret) continue;
    const chosen = stored[name];
    inForce[name] = chosen !== undefined ? chosen : typeof row.default === 'function' ? (row.default as (c: DefaultsContext) => unknown)(context) : row.default;
  }
  return inForce as SettingsInForceOf<T>;
}

/**
 * The stored settings after `patch`: settings given are set, absent ones left as they were; null forgets the choice
 * where the row says so. Secrets are never stored (the caller puts them in the vault); a name the table does not have
 * is ignored (the patch schema refuses it before this).
 */
export function patchedSettings<T extends SettingsTable>(table: T, stored: StoredSettingsOf<T>, patch: SettingsPatchOf<T>): StoredSettingsOf<T> {
  const next: Record<string, unknown> = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    const row = table[name];
    if (row === undefined || row.secret || value === undefined) continue;
    if (value === null && row.nullable === 'forgets') delete next[name];
    else next[name] = value;
  }
  return next as StoredSettingsOf<T>;
}

/**
 * A patch as the audit may keep it (issue 4: no secret in the database): each secret given becomes `replaced`, or
 * `forgotten` for null; the rest as given. The caller masks what is only partly secret (a feed URL's password).
 */
export function auditedPatch<T extends SettingsTable>(table: T, patch: SettingsPatchOf<T>): Record<string, unknown> {
  const detail: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    detail[name] = table[name]?.secret ? (value === null ? 'forgotten' : 'replaced') : value;
  }
  return detail;
}

export const SETTINGS_BEHIND_PIN = /* @__PURE__ */ settingsBehindPin(SETTINGS);
export const SECRET_SETTINGS = /* @__PURE__ */ secretSettings(SETTINGS);
