import type { Language } from '../../../shared/kiosk-names.ts';
import type { English } from './translate.ts';
import { fill, pluralForm, pluralRules, type Message, type Params, type PluralRules, type Translation } from './messages.ts';

// The translator over any source of tables (issue 13 "Typed i18n"): the keys are typed by the English table, the
// tables themselves come from the caller. i18n/translate.ts gives it every table at once (tests, the build); the
// renderer gives it the one language it has loaded (issue 14 "cold start": lib/i18n.svelte.ts, i18n/load-language.ts),
// so this module carries no table and imports none at run time.

export type Lang = 'en' | 'es' | 'pt';
/** One language's merged table, typed by the English one: the same keys, plural forms where English has them. */
export type LanguageTable = Translation<English>;
/** A key of the tables: a literal key that is not in them does not compile (issue 13 "Typed i18n"). */
export type MessageKey = keyof English & string;
/** The keys whose words change with a count; `t` asks for that count. */
export type PluralKey = { [K in MessageKey]: English[K] extends string ? never : K }[MessageKey];
type Args<K extends MessageKey> = K extends PluralKey ? [params: Params & { readonly count: number }] : [params?: Params];

export interface Translator {
  /** The text for `key` in the current language, its plural form picked by `params.count`, {name} placeholders filled. */
  t<K extends MessageKey>(key: K, ...args: Args<K>): string;
  /**
   * The same for a key built at run time from a value the platform or a newer core may send (a refund status, a CSV
   * problem code, a payment method id): null when the tables have no such key, so the caller says what to show
   * instead (never a bare key, and no `t(key) === key` check).
   */
  lookup(key: string, params?: Params): string | null;
  /**
   * A quantity with its unit of measure: "1 unidad", "2 unidades" when the unit is this language's word for "unit" (the
   * catalog's default, catalog.defaultUnit), otherwise the number and the unit as the manager typed it ("2 kg").
   */
  quantity(count: number, unit: string): string;
  /**
   * A unit of measure as shown beside a price ("$ 450,00 / u."): the short word for "unit" when it is the default (the
   * platform's `unit` or this language's catalog.defaultUnit, issue 15 review: never "unit" inside es and pt screens),
   * otherwise the unit as the manager typed it.
   */
  unit(unit: string): string;
}

export const langOf = (locale: Language): Lang => (locale.startsWith('pt') ? 'pt' : locale.startsWith('es') ? 'es' : 'en');

/**
 * A translator reading the current language from `locale()` and its table from `tableOf` at every call (both reactive
 * reads in the renderer).
 */
export function translatorOver(locale: () => Language, tableOf: (lang: Lang) => LanguageTable): Translator {
  const rulesByLocale = new Map<Language, PluralRules>();
  const rulesOf = (current: Language): PluralRules => {
    let rules = rulesByLocale.get(current);
    if (!rules) rulesByLocale.set(current, (rules = pluralRules(current)));
    return rules;
  };
  const format = (message: Message, params: Params): string => {
    const count = params['count'];
    // A plural message without a count can only come from a key built at run time; its general form is the safe one.
    const text = typeof count === 'number' ? pluralForm(message, count, rulesOf(locale())) : typeof message === 'string' ? message : message.other;
    return fill(text, params);
  };
  const table = (): Readonly<Record<string, Message>> => tableOf(langOf(locale()));
  const lookup = (key: string, params: Params = {}): string | null => {
    const current = table();
    return Object.hasOwn(current, key) ? format(current[key] as Message, params) : null;
  };
  const t = <K extends MessageKey>(key: K, ...[params]: Args<K>): string => format(tableOf(langOf(locale()))[key], params ?? {});
  /** The platform's default unit_measure (seed: "unit"), which a catalog may carry whatever the kiosk's language. */
  const PLATFORM_UNIT = 'unit';
  const isDefaultUnit = (unit: string): boolean => {
    const current = locale();
    const word = unit.trim().toLocaleLowerCase(current);
    return word === PLATFORM_UNIT || word === t('catalog.defaultUnit').toLocaleLowerCase(current);
  };
  const quantity = (count: number, unit: string): string => (isDefaultUnit(unit) ? t('common.units', { count }) : `${count} ${unit}`);
  const unit = (measure: string): string => (isDefaultUnit(measure) ? t('common.unitShort') : measure);
  return { t, lookup, quantity, unit };
}
