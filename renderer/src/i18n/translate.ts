import type { Language } from '../../../shared/kiosk-names.ts';
import { common } from './common.ts';
import { sale } from './sale.ts';
import { history } from './history.ts';
import { settings } from './settings.ts';
import { catalog } from './catalog.ts';
import { receipt } from './receipt.ts';
import { setup } from './setup.ts';
import { reports } from './reports.ts';
import { people } from './people.ts';
import { till } from './till.ts';
import type { Translation } from './messages.ts';
import { translatorOver, type Lang, type Translator } from './words.ts';

export { langOf, type Lang, type LanguageTable, type MessageKey, type PluralKey, type Translator } from './words.ts';

// No user-facing string is written in a component: every text comes from these tables (issue 5 "Languages"). Each
// area's es and pt tables are typed by its English one (messages.ts), so the merged tables have the same keys too.
//
// issue 14 "cold start": this module holds every language at once, for the tests and for the build, which makes one
// module per language of it (renderer/vite.config.ts, languageTables). The renderer never imports it at run time
// (only its types): it loads the one language it shows (i18n/load-language.ts).
const en = { ...common.en, ...sale.en, ...history.en, ...settings.en, ...catalog.en, ...receipt.en, ...setup.en, ...reports.en, ...people.en, ...till.en };
export type English = typeof en;
export const tables: Readonly<Record<Lang, Translation<English>>> = {
  en,
  es: { ...common.es, ...sale.es, ...history.es, ...settings.es, ...catalog.es, ...receipt.es, ...setup.es, ...reports.es, ...people.es, ...till.es },
  pt: { ...common.pt, ...sale.pt, ...history.pt, ...settings.pt, ...catalog.pt, ...receipt.pt, ...setup.pt, ...reports.pt, ...people.pt, ...till.pt },
};

/**
 * The keys a page shows before it can know its language: a page without its launch key cannot read the kiosk's
 * settings, so it says so in every language at once (issue 15; App.svelte "no-key"). The build puts these few words of
 * every language in the first script; every other word comes with its language.
 */
export const BOOT_KEYS = ['app.noKey.title', 'app.noKey.body'] as const satisfies ReadonlyArray<keyof English>;

/** A translator over every table, reading the current language from `locale()` at every call. */
export function translator(locale: () => Language): Translator {
  return translatorOver(locale, (lang) => tables[lang]);
}
