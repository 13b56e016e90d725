import { common } from '../i18n/common.ts';
import { sale } from '../i18n/sale.ts';
import { history } from '../i18n/history.ts';
import { settings } from '../i18n/settings.ts';
import { catalog } from '../i18n/catalog.ts';
import { receipt } from '../i18n/receipt.ts';
import type { KioskSettings } from '../../../shared/kiosk-api.ts';

export type Locale = KioskSettings['language'];
type Lang = 'en' | 'es' | 'pt';
type Table = Record<string, string>;

// No user-facing string is written in a component: every text comes from these tables (issue 5 "Languages").
const tables: Record<Lang, Table> = {
  en: { ...common.en, ...sale.en, ...history.en, ...settings.en, ...catalog.en, ...receipt.en },
  es: { ...common.es, ...sale.es, ...history.es, ...settings.es, ...catalog.es, ...receipt.es },
  pt: { ...common.pt, ...sale.pt, ...history.pt, ...settings.pt, ...catalog.pt, ...receipt.pt },
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

  /**
   * An error code in words (common.ts has every code the core can answer with; its type keeps it so). A code this
   * build does not know yet falls back to "Something went wrong: <the core's message>", never to a bare key.
   */
  error = (error: { code: string; message?: string | null }): string => {
    const key = `error.${error.code}`;
    const params = { message: error.message || error.code };
    const known = tables[langOf(this.locale)][key] ?? tables.en[key];
    return known !== undefined ? this.t(key, params) : this.t('common.errorFallback', params);
  };
}

export const i18n = new I18n();
export const t = i18n.t;
