// The modules renderer/vite.config.ts (languageTables) makes from i18n/translate.ts at build time (issue 14 "cold
// start"): one language's merged table each (shipped as load-language.ts ShippedLanguage), and the words of every
// language a page needs before it knows its own (keyed as the bundle's literals are: by id when the build shortened).
// Ambient module declarations cannot import a relative module (TS2439), so their types are import() types.
/* eslint-disable @typescript-eslint/consistent-type-imports */
declare module 'virtual:kiosk-language/en' {
  const table: import('./load-language.ts').ShippedLanguage;
  export default table;
}
declare module 'virtual:kiosk-language/es' {
  const table: import('./load-language.ts').ShippedLanguage;
  export default table;
}
declare module 'virtual:kiosk-language/pt' {
  const table: import('./load-language.ts').ShippedLanguage;
  export default table;
}
declare module 'virtual:kiosk-language/boot' {
  const boot: Record<import('./words.ts').Lang, Pick<import('./words.ts').LanguageTable, (typeof import('./translate.ts').BOOT_KEYS)[number]>>;
  export default boot;
}
