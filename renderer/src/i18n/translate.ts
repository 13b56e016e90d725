import type { Language } from '../../../shared/kiosk-names.ts';
import { common } from './common.ts';
import { sale } from './sale.ts';
import { history } from './history.ts';
import { settings } from './settings.ts';
import { catalog } from './catalog.ts';
import { receipt } from './receipt.ts';
import { fill, pluralForm, type Message, type Params, type Translation } from './messages.ts';

// No user-facing string is written in a component: every text comes from these tables (issue 5 "Languages"). Each
// area's es and pt tables are typed by its English one (messages.ts), so the merged tables have the same keys too.
const en = { ...common.en, ...sale.en, ...history.en, ...settings.en, ...catalog.en, ...receipt.en };
type English = typeof en;
export type Lang = 'en' | 'es' | 'pt';
export const tables: Readonly<Record<Lang, Translation<English>>> = {
  en,
  es: { ...common.es, ...sale.es, ...history.es, ...settings.es, ...catalog.es, ...receipt.es },
  pt: { ...common.pt, ...sale.pt, ...history.pt, ...settings.pt, ...catalog.pt, ...receipt.pt },
};

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
}

export const langOf = (locale: Language): Lang => (locale.startsWith('pt') ? 'pt' : locale.startsWith('es') ? 'es' : 'en');

/** A translator reading the current language from `locale()` at every call (a reactive read in the renderer). */
export function translator(locale: () => Language): Translator {
  const rulesByLocale = new Map<Language, Intl.PluralRules>();
  const rulesOf = (current: Language): Intl.PluralRules => {
    let rules = rulesByLocale.get(current);
    if (!rules) rulesByLocale.set(current, (rules = new Intl.PluralRules(current)));
    return rules;
  };
  const format = (message: Message, params: Params): string => {
    const count = params['count'];
    // A plural message without a count can only come from a key built at run time; its general form is the safe one.
    const text = typeof count === 'number' ? pluralForm(message, count, rulesOf(locale())) : typeof message === 'string' ? message : message.other;
    return fill(text, params);
  };
  const table = (): Readonly<Record<string, Message>> => tables[langOf(locale())];
  const lookup = (key: string, params: Params = {}): string | null => {
    const current = table();
    return Object.hasOwn(current, key) ? format(current[key] as Message, params) : null;
  };
  const t = <K extends MessageKey>(key: K, ...[params]: Args<K>): string => format(tables[langOf(locale())][key], params ?? {});
  const quantity = (count: number, unit: string): string => {
    const current = locale();
    const counted = unit.trim().toLocaleLowerCase(current) === t('catalog.defaultUnit').toLocaleLowerCase(current);
    return counted ? t('common.units', { count }) : `${count} ${unit}`;
  };
  return { t, lookup, quantity };
}
