import type { Lang, LanguageTable } from './words.ts';

// issue 14 "cold start": the five areas' tables of the three languages were more than half of the first script. The
// build makes one module per language (renderer/vite.config.ts, languageTables), so a display downloads the language
// it shows, and another only when a manager switches to it. This module carries none of them: it loads them.

const modules: Record<Lang, () => Promise<{ default: LanguageTable }>> = {
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
        loaded.set(lang, module.default);
        return module.default;
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
