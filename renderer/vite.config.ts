import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { BOOT_KEYS, tables } from './src/i18n/translate.ts';

const LANGUAGE_MODULE = 'virtual:kiosk-language/';
/** The language a kiosk shows until its settings say otherwise (lib/i18n.svelte.ts): preloaded with the first script. */
const FIRST_LANGUAGE = 'es';

/**
 * issue 14 "cold start": one module per language (`virtual:kiosk-language/es`: that language's merged table, made from
 * i18n/translate.ts as data), so a display downloads the words of the language it shows, not all three (they were
 * more than half of the first script). `virtual:kiosk-language/boot` holds the few words of every language a page
 * shows before it knows its own (BOOT_KEYS). The area files (i18n/sale.ts...) stay as they are: each keeps its three
 * languages side by side, and this is only how they reach the page. The first language's module is preloaded beside
 * the first script (a <link rel="modulepreload">, allowed by script-src 'self'), so it arrives with it, not after it.
 */
function languageTables(): Plugin {
  // Resolved to `lang-<name>`, which names each language's chunk (lang-es-<hash>.js: the budget test finds them so).
  const prefix = '\0kiosk-language/lang-';
  const pick = (table: Readonly<Record<string, unknown>>) => Object.fromEntries(BOOT_KEYS.map((key) => [key, table[key]]));
  return {
    name: 'kiosk-language-tables',
    resolveId: (id) => (id.startsWith(LANGUAGE_MODULE) ? `${prefix}${id.slice(LANGUAGE_MODULE.length)}` : null),
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const name = id.slice(prefix.length);
      if (name === 'boot') return `export default ${JSON.stringify(Object.fromEntries(Object.entries(tables).map(([lang, table]) => [lang, pick(table)])))};`;
      if (!Object.hasOwn(tables, name)) throw new Error(`no language ${name} in renderer/src/i18n/translate.ts`);
      return `export default ${JSON.stringify(tables[name as keyof typeof tables])};`;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const first = Object.values(context.bundle ?? {}).find((output) => output.type === 'chunk' && output.facadeModuleId === `${prefix}${FIRST_LANGUAGE}`);
        if (!context.bundle) return []; // the dev server: no chunks to name
        if (!first) throw new Error(`the build has no chunk for the first language (${FIRST_LANGUAGE})`);
        return [{ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: '', href: `./${first.fileName}` }, injectTo: 'head' }];
      },
    },
  };
}

// The cashier UI: built once into renderer/dist, served by the web shell or loaded by the Electron shell.
export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // Component CSS goes to the bundle's stylesheet file, never into <style> elements the page would inject at run time:
  // both shells' CSP has style-src 'self' without 'unsafe-inline' (issue 12, electron/main/content-policy.ts).
  // configFile: false: every Svelte option is here, and without it the plugin prints "no Svelte config found" on each
  // `npm start`, a line a newcomer reads as a problem (issue 15, first five minutes).
  plugins: [svelte({ configFile: false, emitCss: true, compilerOptions: { css: 'external' } }), languageTables()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // On a busy 2-core machine the Svelte transform can pass Rolldown's "significant time in plugins" threshold; its
    // [PLUGIN_TIMINGS] warning then prints on `npm start` and reads as an error to a newcomer (issue 15). Build speed
    // is not something a cashier or a store owner can act on, so the check stays off.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
