import { common } from '../i18n/common.ts';
import { sale } from '../i18n/sale.ts';
import { history } from '../i18n/history.ts';
import { settings } from '../i18n/settings.ts';
import type { KioskSettings } from '../../../shared/kiosk-api.ts';

export type Locale = KioskSettings['language'];
type Lang = 'en' | 'es' | 'pt';
type Table = Record<string, string>;

// No user-facing string is written in a component: every text comes from these tables (issue 5 "Languages").
const tables: Record<Lang, Table> = {
  en: { ...common.en, ...sale.en, ...history.en, ...settings.en },
  es: { ...common.es, ...sale.es, ...history.es, ...settings.es },
  pt: { ...common.pt, ...sale.pt, ...history.pt, ...settings.pt },
};

const langOf = (locale: Locale): Lang => (locale.startsWith('pt') ? 'pt' : locale.startsWith('es') ? 'es' : 'en');

class I18n {
  locale = $state<Locale>('es-AR');

  /** The text for `key` in the current language, with {name} placeholders filled; the key itself if it is missing. */
  t = (key: string, params: Record<string, string | number> = {}): string => {
    const text = tables[langOf(this.locale)][key] ?? tables.en[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (_m, name: string) => String(params[name] ?? `{${name}}`));
  };

  /** Money in the seller's currency with the locale's conventions; CLP without decimals (issue 5 "Sale"). */
  money = (amount: string, currency: string): string => {
    const digits = currency === 'CLP' ? 0 : 2;
    return new Intl.NumberFormat(this.locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(Number(amount));
  };

  /** A platform error code in words; unknown codes fall back to the platform's own message. */
  error = (error: { code: string; message: string }): string => {
    const key = `error.${error.code}`;
    const params = { message: error.message || error.code };
    const known = tables[langOf(this.locale)][key] ?? tables.en[key];
    return known !== undefined ? this.t(key, params) : this.t('error.generic', params);
  };
}

export const i18n = new I18n();
export const t = i18n.t;
