// Layering rules (style guide pattern 1): who may import whom, enforced per folder.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = ['node:*', 'fs', 'path', 'crypto', 'http', 'https', 'net', 'os', 'child_process', 'url', 'stream', 'events', 'buffer', 'util', 'zlib', 'tls', 'dns', 'worker_threads'];
const layer = (folder, forbidden, message) => ({
  files: [`${folder}/**/*.ts`, `${folder}/**/*.svelte.ts`],
  rules: {
    'no-restricted-imports': ['error', { patterns: forbidden.map((group) => ({ group: [group], message })) }],
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
  // launch/ is the composition root: the only code that wires the core to the embedded sandbox and relay (training
  // mode's zero-config default). Nothing imports it.
);
