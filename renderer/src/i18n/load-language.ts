import type { Lang, LanguageTable } from './words.ts';
import type { Message } from './messages.ts';

// issue 14 "cold start": the five areas' tables of the three languages were more than half of the first script. The
// build makes one module per language (renderer/vite.config.ts, languageTables), so a display downloads the language
// it shows, and another only when a manager switches to it. This module carries none of them: it loads them.

/**
 * A language as the build ships it (issue 5 budget, renderer/vite.config.ts messageIds): the messages of the keys it
 * gave short ids, in id order, and the others by key. Joined, they are the table the bundle's literals look up.
 */
export type ShippedLanguage = readonly [byId: readonly Message[], byKey: Readonly<Record<string, Message>>];

const modules: Record<Lang, () => Promise<{ default: ShippedLanguage }>> = {
  en: () => import('virtual:kiosk-language/en'),
  es: () => import('virtual:kiosk-language/es'),
  pt: () => import('virtual:kiosk-language/pt'),
};

const loaded = new Map<Lang, LanguageTable>();
const loading = new Map<Lang, Promise<LanguageTable>>();

/** The table of `lang` when it has been loaded, else undefined. */
export function loadedTable(lang: Lang): LanguageTable | undefined {
  return loaded.get(lang);
}

/**
 * Loads the table of `lang` (once: later calls share the first). Rejects when its module cannot be loaded (the server
 * went away); the next call tries again.
 */
export function loadLanguage(lang: Lang): Promise<LanguageTable> {
  let pending = loading.get(lang);
  if (!pending) {
    pending = modules[lang]().then(
      (module) => {
        // The build made both halves from this language's table: joined, every key the bundle's literals name (an id
        // where the build shortened it, the key itself elsewhere) is there, which is what LanguageTable promises them.
        const [byId, byKey] = module.default;
        const table = Object.assign({}, byId, byKey) as unknown as LanguageTable;
        loaded.set(lang, table);
        return table;
      },
      (error: unknown) => {
        loading.delete(lang);
        throw error;
      },
    );
    loading.set(lang, pending);
  }
  return pending;
}


/** The words of every language a page shows before it knows its own (i18n/translate.ts, BOOT_KEYS): in the first script. */
export { default as bootWords } from 'virtual:kiosk-language/boot';
