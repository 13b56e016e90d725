import { langOf, translatorOver, type LanguageTable, type Lang, type Translator } from '../i18n/words.ts';
import { bootWords, loadedTable, loadLanguage } from '../i18n/load-language.ts';
import type { Language } from '../../../shared/kiosk-names.ts';

export type Locale = Language;

class I18n {
  /** The language on screen: its table is always loaded (main.ts loads the first before mounting). */
  #shown = $state<Locale>('es-AR');
  /** The language asked for last: shown once its table has loaded. */
  #wanted: Locale = 'es-AR';
  /** Counts the tables loaded, so a text read while its language was loading is read again when it arrives. */
  #arrivals = $state(0);

  /**
   * The current language. issue 14 "cold start": each language's table is loaded when first asked for, so setting
   * another language loads its table first, then switches every screen at once (never half of them, never a key).
   */
  get locale(): Locale {
    return this.#shown;
  }
  set locale(next: Locale) {
    void this.use(next);
  }

  /**
   * Switches to `next` once its table is loaded (at once when it already is), unless another language was asked for
   * meanwhile. Resolves when it is shown, or when its table could not be loaded (the screen then stays as it was).
   */
  async use(next: Locale): Promise<void> {
    this.#wanted = next;
    if (!loadedTable(langOf(next))) await this.#load(langOf(next));
    if (this.#wanted === next && loadedTable(langOf(next))) this.#shown = next;
  }

  /** Resolves when the current language's table is loaded (main.ts waits for it before the first render). */
  ready(): Promise<void> {
    return this.#load(langOf(this.#wanted));
  }

  /**
   * The table of `lang`, or, while it loads, the words every page carries (the no-key screen's) over the shown
   * language's table, so a text is never missing; reading #arrivals makes that text render again when the table comes.
   */
  table = (lang: Lang): LanguageTable => {
    void this.#arrivals;
    const table = loadedTable(lang);
    if (table) return table;
    void this.#load(lang);
    const shown = loadedTable(langOf(this.#shown));
    if (!shown) throw new Error(`the ${lang} words are not loaded (main.ts loads the first language before mounting)`);
    return { ...shown, ...bootWords[lang] };
  };

  async #load(lang: Lang): Promise<void> {
    if (loadedTable(lang)) return;
    try {
      await loadLanguage(lang);
    } catch {
      // The server went away (the kiosk is stopping): the screen stays in the language it shows; a later switch retries.
      return;
    }
    this.#arrivals += 1;
  }

  // The pure translator (i18n/words.ts) reads the locale and its table at each call, so every text re-renders when
  // either changes.
  readonly #words: Translator = translatorOver(() => this.locale, this.table);

  /** The text for a key of the tables, with its plural form and {name} placeholders (i18n/words.ts). */
  t: Translator['t'] = this.#words.t;
  /** The text for a key built at run time, or null when the tables have none. */
  lookup: Translator['lookup'] = this.#words.lookup;
  /** "2 unidades", "1,5 kg": a quantity with its unit in words. */
  quantity: Translator['quantity'] = this.#words.quantity;
  /** "u.", "kg": a unit of measure as shown beside a price. */
  unit: Translator['unit'] = this.#words.unit;

  /**
   * Money in the seller's currency with the locale's conventions; CLP without decimals (issue 5 "Sale"). issue 14: one
   * formatter per locale and currency, kept (as lib/clock.ts keeps its own), not one made per amount: a History page or
   * a report formats hundreds. (The first formatter of a page costs 15-30 ms in Chromium, loading ICU's data:
   * public/warm-intl.js pays that before the first render.)
   */
  money = (amount: string, currency: string): string => {
    const key = `${this.locale} ${currency}`;
    let format = this.#moneyFormats.get(key);
    if (!format) {
      const digits = currency === 'CLP' ? 0 : 2;
      format = new Intl.NumberFormat(this.locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
      this.#moneyFormats.set(key, format);
    }
    return format.format(Number(amount));
  };
  readonly #moneyFormats = new Map<string, Intl.NumberFormat>();

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

/**
 * A translator for one fixed language whatever the kiosk's (the no-key screen says its message in all three): its
 * table is loaded when first read, and until then the words every page carries answer (i18n.table).
 */
export function translator(locale: () => Language): Translator {
  return translatorOver(locale, i18n.table);
}
