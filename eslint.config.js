// Layering rules (style guide pattern 1): who may import whom, enforced per folder by build/eslint-layering.js, which
// resolves each relative import against the importing file, so a rule holds at any folder depth (issue 13).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import layering from './build/eslint-layering.js';

// A layer's rule, for its .ts, .svelte.ts and .svelte files. `folders`: project folders it may not import from (at any
// depth); `only`: the project folders it may import from, everything else refused; `modules`: bare module names refused
// by exact name; `builtins`: no Node built-in modules. A sub-folder's layer comes after its parent's and replaces it,
// so it restates everything the parent forbids.
const layer = (folder, { folders = [], only, modules = [], builtins = false }, message) => ({
  files: [`${folder}/**/*.ts`, `${folder}/**/*.svelte`],
  rules: {
    'layering/imports': ['error', { folders, ...(only ? { only } : {}), modules, builtins, message }],
  },
});

// issue 28: one layer rule per folder of electron/core, from `ranks` (lowest first). `package.json` is the version
// the heartbeat, the bundle and getUpdateState report.
const coreLayers = (ranks) =>
  ranks.flatMap((rank, i) =>
    rank.map((folder) => {
      const below = ranks.slice(0, i).flat();
      const only = [folder, ...below].map((f) => `electron/core/${f}`).concat(['electron/core/ports.ts', 'electron/core/kiosk-core.ts', 'shared', 'node-common', 'package.json']);
      const may = below.length > 0 ? `${below.map((f) => `${f}/`).join(', ')}, ` : '';
      return layer(`electron/core/${folder}`, { only, modules: ['electron'] },
        `electron/core/${folder}/ may import only ${may}the core's contract (ports.ts, kiosk-core.ts), shared/ and node-common/ (issue 28 layers: eslint.config.js).`);
    }),
  );

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'renderer/dist/**', 'coverage/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    plugins: { layering },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Svelte components and rune modules: the svelte parser, with typescript-eslint's for `<script lang="ts">`.
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { globals: { ...globals.browser }, parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
    // Names are checked by svelte-check's typecheck (test/unit/layering.test.ts); ESLint's no-undef does not know
    // TypeScript's types or Svelte's runes (typescript-eslint turns it off for .ts files for the same reason). The
    // svelte parser reads a `<script module>` re-export (`export { x } from`) as a write to the import x; the Svelte
    // compiler itself refuses a real assignment to an import (constant_assignment), so no-import-assign adds nothing.
    rules: { 'no-undef': 'off', 'no-import-assign': 'off' },
  },
  layer('shared', { only: ['shared'], builtins: true, modules: ['electron'] },
    'shared/ is pure TypeScript used by every process: no Node, Electron or DOM, and no other layer.'),
  layer('renderer', { only: ['renderer', 'shared'], builtins: true, modules: ['electron'] },
    'renderer/ talks only to the KioskApi contract in shared/.'),
  layer('sandbox', { folders: ['electron', 'relay', 'renderer', 'launch'], modules: ['electron'] },
    'sandbox/, relay/ and electron/ never import each other.'),
  // issue 28: the sandbox's domain (its services and their failures, sandbox/domain/errors.ts) knows nothing of HTTP;
  // the routes and http/ render what it returns and throws.
  layer('sandbox/domain', { folders: ['electron', 'relay', 'renderer', 'launch', 'sandbox/http', 'sandbox/routes'], modules: ['electron'] },
    'sandbox/domain/ holds the services and their failures: it never imports sandbox/http/ or sandbox/routes/.'),
  layer('relay', { folders: ['electron', 'sandbox', 'renderer', 'launch'], modules: ['electron'] },
    'sandbox/, relay/ and electron/ never import each other.'),
  layer('electron', { folders: ['sandbox', 'relay', 'renderer', 'launch'] },
    'sandbox/, relay/ and electron/ never import each other.'),
  // launch/ is a composition root: the only code that wires the core to the embedded sandbox and relay (training
  // mode's zero-config default). Nothing under electron/ imports it (issue 13: no folder cycle). It runs under plain
  // Node (npm run web), so it never imports `electron` or the Electron shell; electron-main.ts below is the exception.
  layer('launch', { folders: ['electron/main', 'electron/preload', 'renderer'], modules: ['electron'] },
    'launch/ runs under plain Node: no `electron`, no Electron shell, no renderer.'),
  // The Electron main process entry (bundled into out/main/main.mjs): the one launch/ file that runs inside Electron,
  // so it may hand the `electron` module and launch/'s config and startKiosk to the shell (electron/main/kiosk-app.ts).
  {
    files: ['launch/electron-main.ts'],
    rules: {
      'layering/imports': ['error', { folders: ['electron/preload', 'renderer'], modules: [], builtins: false,
        message: 'launch/electron-main.ts composes electron/main/ and launch/; never the preload or the renderer.' }],
    },
  },
  // issue 6: the core and the web shell are plain Node, so both shells and the tests run them; only the Electron
  // main process (and its preload) import `electron`.
  layer('electron/core', { folders: ['sandbox', 'relay', 'renderer', 'launch', 'electron/main', 'electron/preload', 'electron/web-shell'], modules: ['electron'] },
    'electron/core/ is plain Node: no `electron`, no shell (main, preload, web shell), no composition root (launch/).'),
  // issue 28: the core's own layers, lowest first. A folder may import its own files, the layers below its own, the
  // contract glue at the core's root (ports.ts, kiosk-core.ts), shared/ and node-common/: never a folder of its own
  // rank or above, and never compose.ts or api-dispatch.ts (the shells' entries; test/unit/core/import-graph.test.ts
  // proves the core has no import circle). The order is what the code needs:
  //   host/      the process's own services: the redacting logger, private files, the renderer's content types;
  //   store/, platform/, vault/   the database, the platform's API, the keychain (each on host/ alone);
  //   outbox/ (sends over platform/ what store/ queued), catalog/, people/ (PINs, shifts), reports/, settings/;
  //   orders/ (a sale's create, recovery and events: it classifies a send as outbox/ does), live/ (the relay, the
  //   poller, connectivity: it switches relays by settings/), support/ (the bundle and the heartbeat);
  //   till/      the cash drawer and cash sales (issue 29: a cash sale's lines are an order's, orders/order-items.ts);
  //   api/       the KioskApi's area modules over all of them;
  //   compose.ts wires everything (the electron/core rule above).
  ...coreLayers([['host'], ['store', 'platform', 'vault'], ['outbox', 'catalog', 'people', 'reports', 'settings'], ['orders', 'live', 'support'], ['till'], ['api']]),
  // The contract glue itself imports only shared/, node-common/ and each other: every layer may import it.
  {
    files: ['electron/core/ports.ts', 'electron/core/kiosk-core.ts'],
    rules: {
      'layering/imports': ['error', { folders: [], only: ['electron/core/ports.ts', 'electron/core/kiosk-core.ts', 'shared', 'node-common'], modules: ['electron'], builtins: false,
        message: "electron/core/ports.ts and kiosk-core.ts are the core's contract: they import only shared/, node-common/ and each other." }],
    },
  },
  layer('electron/web-shell', { folders: ['sandbox', 'relay', 'renderer', 'launch', 'electron/main', 'electron/preload'], modules: ['electron'] },
    'electron/web-shell/ is plain Node: no `electron`, no Electron shell, no composition root (launch/).'),
  // The Electron shell: it may import electron/core and the preload's channel names, never the sandbox, relay or
  // renderer, and never launch/ (which imports it: the entry, launch/electron-main.ts, injects what it needs).
  layer('electron/main', { folders: ['sandbox', 'relay', 'renderer', 'launch', 'electron/web-shell'] },
    'electron/main/ is the Electron shell: it imports electron/core/; launch/ injects the rest (launch/electron-main.ts).'),
  // The preload is bundled into one sandboxed file: only `electron` and shared/ (Electron "Process Sandboxing").
  layer('electron/preload', { only: ['electron/preload', 'shared'], builtins: true },
    'electron/preload/ runs sandboxed: it imports only `electron` and shared/.'),
  // issue 13 "one home for shared Node code": the helpers the sandbox, the relay, the kiosk core and launch/ all need
  // on Node (retry, sleep, SQLite, Clock/Random, listen). shared/ and renderer/ may not import it (their `only` lists
  // leave it out); it imports only shared/, Node built-ins and npm packages, never `electron`.
  layer('node-common', { only: ['node-common', 'shared'], modules: ['electron'] },
    'node-common/ is plain Node shared by sandbox/, relay/, electron/core/ and launch/: it imports only shared/, Node and npm packages.'),
);
