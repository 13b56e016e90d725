// Layering rules (style guide pattern 1): who may import whom, enforced per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process', 'url', 'stream', 'events', 'buffer', 'util', 'zlib', 'tls', 'dns', 'worker_threads'];
// `modules`: bare module names refused by exact name (a pattern such as 'electron' would also match a path segment,
// e.g. '../electron/core/x.ts').
const layer = (folder, forbidden, message, modules = []) => ({
  files: [`${folder}/**/*.ts`, `${folder}/**/*.svelte.ts`],
  rules: {
    'no-restricted-imports': ['error', { paths: modules.map((name) => ({ name, message })), patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});
const relative = (target) => [`../${target}/**`, `../../${target}/**`, `../../../${target}/**`, `../${target}`, `../../${target}`];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'renderer/dist/**', 'coverage/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  layer('shared', [...nodeBuiltins, 'electron', ...relative('electron'), ...relative('sandbox'), ...relative('relay'), ...relative('renderer'), ...relative('launch')],
    'shared/ is pure TypeScript used by every process: no Node, Electron or DOM, and no other layer.'),
  layer('renderer', [...nodeBuiltins, 'electron', ...relative('electron'), ...relative('sandbox'), ...relative('relay'), ...relative('launch')],
    'renderer/ talks only to the KioskApi contract in shared/.'),
  layer('sandbox', ['electron', ...relative('electron'), ...relative('relay'), ...relative('renderer'), ...relative('launch')],
    'sandbox/, relay/ and electron/ never import each other.'),
  layer('relay', ['electron', ...relative('electron'), ...relative('sandbox'), ...relative('renderer'), ...relative('launch')],
    'sandbox/, relay/ and electron/ never import each other.'),
  layer('electron', [...relative('sandbox'), ...relative('relay'), ...relative('renderer'), ...relative('launch')],
    'sandbox/, relay/ and electron/ never import each other.'),
  // launch/ is a composition root: the only code that wires the core to the embedded sandbox and relay (training
  // mode's zero-config default). Only the Electron main process (the other composition root) imports it. It runs
  // under plain Node (npm run web), so it never imports `electron` or the Electron shell.
  layer('launch', [...relative('electron/main'), ...relative('electron/preload'), ...relative('renderer')],
    'launch/ runs under plain Node: no `electron`, no Electron shell, no renderer.', ['electron']),
  // issue 6: the core and the web shell are plain Node, so both shells and the tests run them; only the Electron
  // main process (and its preload) import `electron`.
  layer('electron/core', [...relative('sandbox'), ...relative('relay'), ...relative('renderer'), ...relative('launch'), ...relative('main'), ...relative('preload'), ...relative('web-shell')],
    'electron/core/ is plain Node: no `electron`, no shell (main, preload, web shell), no composition root (launch/).', ['electron']),
  layer('electron/web-shell', [...relative('sandbox'), ...relative('relay'), ...relative('renderer'), ...relative('launch'), ...relative('main'), ...relative('preload')],
    'electron/web-shell/ is plain Node: no `electron`, no Electron shell, no composition root (launch/).', ['electron']),
  // The main process is the Electron composition root: it may import launch/, electron/core and the preload's channel
  // names, never the sandbox, relay or renderer directly.
  layer('electron/main', [...relative('sandbox'), ...relative('relay'), ...relative('renderer'), ...relative('web-shell')],
    'electron/main/ composes launch/ and electron/core/; sandbox/, relay/ and renderer/ are reached only through launch/.'),
  // The preload is bundled into one sandboxed file: only `electron` and shared/ (Electron "Process Sandboxing").
  layer('electron/preload', [...nodeBuiltins, ...relative('sandbox'), ...relative('relay'), ...relative('renderer'), ...relative('launch'), ...relative('core'), ...relative('main'), ...relative('web-shell')],
    'electron/preload/ runs sandboxed: it imports only `electron` and shared/.'),
);
