import { translator, type Translator } from '../i18n/translate.ts';
import type { Language } from '../../../shared/kiosk-names.ts';

export type Locale = Language;

class I18n {
  locale = $state<Locale>('es-AR');
  // The pure translator (i18n/translate.ts) reads the locale at each call, so every text re-renders when it changes.
  readonly #words: Translator = translator(() => this.locale);

  /** The text for a key of the tables, with its plural form and {name} placeholders (i18n/translate.ts). */
  t: Translator['t'] = this.#words.t;
  /** The text for a key built at run time, or null when the tables have none. */
  lookup: Translator['lookup'] = this.#words.lookup;
  /** "2 unidades", "1,5 kg": a quantity with its unit in words. */
  quantity: Translator['quantity'] = this.#words.quantity;

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
    const params = { message: error.message || error.code };
    return this.lookup(`error.${error.code}`, params) ?? this.t('common.errorFallback', params);
  };
}

export const i18n = new I18n();
export const t = i18n.t;
