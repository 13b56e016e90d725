import { defineConfig, parseAst, type Plugin, type Rollup } from 'vite';
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
function languageTables(): Plugin[] {
  // Resolved to `lang-<name>`, which names each language's chunk (lang-es-<hash>.js: the budget test finds them so).
  const prefix = '\0kiosk-language/lang-';
  /** Short ids of the keys the build may shorten (messageIds): none on the dev server, which serves the keys as written. */
  let ids = new Map<string, string>();
  let building = false;
  const idOf = (key: string) => ids.get(key) ?? key;
  const pick = (table: Readonly<Record<string, unknown>>) => Object.fromEntries(BOOT_KEYS.map((key) => [idOf(key), table[key]]));
  const tablesPlugin: Plugin = {
    name: 'kiosk-language-tables',
    configResolved(config) {
      building = config.command === 'build';
    },
    async buildStart() {
      if (building) ids = await messageIds(this.fs, Object.keys(tables.en));
    },
    resolveId: (id) => (id.startsWith(LANGUAGE_MODULE) ? `${prefix}${id.slice(LANGUAGE_MODULE.length)}` : null),
    load(id) {
      if (!id.startsWith(prefix)) return null;
      const name = id.slice(prefix.length);
      if (name === 'boot') return `export default ${JSON.stringify(Object.fromEntries(Object.entries(tables).map(([lang, table]) => [lang, pick(table)])))};`;
      if (!Object.hasOwn(tables, name)) throw new Error(`no language ${name} in renderer/src/i18n/translate.ts`);
      // [the shortened keys' messages in id order, the other keys' messages by key]: i18n/load-language.ts joins them.
      const table: Readonly<Record<string, unknown>> = tables[name as keyof typeof tables];
      const named = Object.fromEntries(Object.entries(table).filter(([key]) => !ids.has(key)));
      return `export default ${JSON.stringify([[...ids.keys()].map((key) => table[key]), named])};`;
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
  // After Svelte and TypeScript have made JavaScript of a module: each string literal that is a shortened key becomes
  // its id, so t('sale.title') is t('17') in the bundle, and the language chunk has no 'sale.title' to carry.
  const literalsPlugin: Plugin = {
    name: 'kiosk-message-ids',
    apply: 'build',
    enforce: 'post',
    transform(code, id) {
      if (ids.size === 0 || !/\.(ts|svelte)$/.test(id) || !SHORTENED.some((dir) => id.startsWith(dir))) return null;
      const edits: Array<[number, number, string]> = [];
      const visit = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (!node || typeof node !== 'object') return;
        const { type, start, end, value, expressions, quasis } = node as { type?: string; start: number; end: number; value?: unknown; expressions?: unknown[]; quasis?: Array<{ value: { cooked: string } }> };
        const text = type === 'Literal' ? value : type === 'TemplateLiteral' && expressions?.length === 0 ? quasis?.[0]?.value.cooked : undefined;
        if (typeof text === 'string' && ids.has(text)) {
          // The offsets must be the literal's own (a parser counting UTF-8 bytes would not be): else no build.
          if (code.slice(start + 1, end - 1) !== text) throw new Error(`kiosk-message-ids: ${id} at ${start} is not the literal '${text}'`);
          edits.push([start, end, JSON.stringify(ids.get(text))]);
        }
        for (const child of Object.values(node)) if (child && typeof child === 'object') visit(child);
      };
      visit(parseAst(code));
      if (edits.length === 0) return null;
      let out = code;
      for (const [start, end, id] of edits.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + id + out.slice(end);
      return { code: out, map: null };
    },
  };
  return [tablesPlugin, literalsPlugin];
}

/** The source folders whose literals may name messages, and the table files, which define them (not uses). */
const SHORTENED = [`${import.meta.dirname}/src/`, `${import.meta.dirname.replace(/\/renderer$/, '')}/shared/`];
const TABLE_FILES = `${import.meta.dirname}/src/i18n/`;

/**
 * issue 5 "Done when" (under 100 KB gzip, the largest language counted): a language chunk spelled its 800-odd keys
 * ("settings.relay.test.ok"...), a sixth of its bytes, and every screen's script spelled them again. The build gives
 * a short id ("0", "1"...) to each key a source writes whole as a literal outside the tables, and never to one whose
 * area a source builds at run time (`error.${code}`, 'status.' + s): those keep their names in the chunk, so `lookup`
 * finds them as before. The sources and their types do not change; only the built page is shorter (3 KB gzip).
 */
async function messageIds(fs: Rollup.PluginContext['fs'], keys: readonly string[]): Promise<Map<string, string>> {
  // The bundler's file system (this.fs): this config is in renderer/, whose code imports no Node module (layering).
  const sourcesIn = async (dir: string): Promise<string[]> =>
    (await Promise.all((await fs.readdir(dir, { withFileTypes: true })).map((entry) => (entry.isDirectory() ? sourcesIn(`${dir}${entry.name}/`) : [`${dir}${entry.name}`])))).flat();
  const sources = (await Promise.all(SHORTENED.map(sourcesIn))).flat().filter((file) => /\.(ts|svelte)$/.test(file));
  const texts = new Map(await Promise.all(sources.map(async (file) => [file, await fs.readFile(file, { encoding: 'utf8' })] as const)));
  const text = (files: string[]) => files.map((file) => texts.get(file)).join('\n');
  const uses = text(sources.filter((file) => !file.startsWith(TABLE_FILES) || file.endsWith('/words.ts')));
  const written = new Set(Array.from(uses.matchAll(/(['"`])([A-Za-z]\w*(?:\.\w+)+)\1/g), (match) => match[2]));
  // An area built at run time: `area.${...}`, 'area.' + ..., in any source (tables included: prefixed()).
  const built = Array.from(text(sources).matchAll(/`([A-Za-z][\w.]*\.)\$\{|(['"`])([A-Za-z][\w.]*\.)\2\s*\+/g), (match) => match[1] ?? match[3]);
  const shortened = keys.filter((key) => written.has(key) && !built.some((area) => key.startsWith(area)));
  return new Map(shortened.map((key, index) => [key, String(index)]));
}

// The cashier UI: built once into renderer/dist, served by the web shell or loaded by the Electron shell.
/**
 * issue 14 "cold start": `public/warm-intl.js` (it says why) as an async classic script right after the title, before
 * the main script, so that it is asked for, arrives and runs first (at the end of the head it ran after the main
 * script in one of two profiled loads, too late to help). Added to the built page rather than written in index.html,
 * where Vite warns at every build that it cannot bundle a script that is not a module: this one must stay its own file.
 */
const warmIntlScript: Plugin = {
  name: 'warm-intl-script',
  transformIndexHtml: {
    order: 'post',
    handler(html) {
      if (!html.includes('</title>')) throw new Error('renderer/index.html has no <title>: the ICU warm-up script goes after it');
      return html.replace('</title>', '</title>\n    <script async src="./warm-intl.js"></script>');
    },
  },
};

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  // Component CSS goes to the bundle's stylesheet file, never into <style> elements the page would inject at run time:
  // both shells' CSP has style-src 'self' without 'unsafe-inline' (issue 12, electron/main/content-policy.ts).
  // configFile: false: every Svelte option is here, and without it the plugin prints "no Svelte config found" on each
  // `npm start`, a line a newcomer reads as a problem (issue 15, first five minutes).
  // cssHash: Svelte's scoped class is `svelte-<hash>` on every styled element of every template; `s<hash>` (same hash,
  // same input as Svelte's default) is the same scoping in fewer bytes (issue 5 "Done when": under 100 KB gzip).
  plugins: [
    svelte({ configFile: false, emitCss: true, compilerOptions: { css: 'external', cssHash: ({ hash, css, filename }) => `s${hash(filename === '(unknown)' ? css : (filename ?? css))}` } }),
    ...languageTables(),
    warmIntlScript,
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Both shells run Chromium, which has <link rel="modulepreload">: Vite's polyfill for browsers without it is dead
    // weight in the first script (issue 5 budget).
    modulePreload: { polyfill: false },
    sourcemap: false,
    // On a busy 2-core machine the Svelte transform can pass Rolldown's "significant time in plugins" threshold; its
    // [PLUGIN_TIMINGS] warning then prints on `npm start` and reads as an error to a newcomer (issue 15). Build speed
    // is not something a cashier or a store owner can act on, so the check stays off.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
