// issue 5 "Languages": no user-facing string is written in a component, and every text exists in en, es and pt. This
// reads the renderer's sources for the keys they ask for with a literal (t('history.title')), loads every message
// table of renderer/src/i18n/, and checks each language has each key itself (the English fallback is for keys a
// newer build adds, not an excuse for a missing translation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', '..', '..');
const rendererSrc = join(root, 'renderer', 'src');
const LANGS = ['en', 'es', 'pt'] as const;
type Tables = Record<(typeof LANGS)[number], Record<string, string>>;

function files(dir: string, ends: string[]): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, ends);
    return ends.some((end) => name.endsWith(end)) ? [path] : [];
  });
}

/** Every message table exported by renderer/src/i18n/*.ts, merged per language (as lib/i18n.svelte.ts does). */
async function loadTables(): Promise<Tables> {
  const merged: Tables = { en: {}, es: {}, pt: {} };
  for (const file of files(join(rendererSrc, 'i18n'), ['.ts'])) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      const table = value as Partial<Record<string, Record<string, string>>>;
      if (!table || typeof table !== 'object' || !LANGS.every((lang) => typeof table[lang] === 'object')) continue;
      for (const lang of LANGS) Object.assign(merged[lang], table[lang]);
    }
  }
  return merged;
}

/** Keys asked for with a literal: t('a.b'), say('a.b'), i18n.t("a.b"), with the file that asks first. */
function usedKeys(): Map<string, string> {
  const used = new Map<string, string>();
  const call = /\b(?:t|say|i18n\.t)\(\s*(['"])([A-Za-z0-9_.-]+)\1/g;
  for (const file of files(rendererSrc, ['.svelte', '.ts'])) {
    if (file.includes(`${join('src', 'i18n')}`)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(call)) {
      const key = match[2] as string;
      if (!used.has(key)) used.set(key, relative(root, file));
    }
  }
  return used;
}

test('the key scan finds the keys the History screen asks for (the pattern still matches the code)', () => {
  const used = usedKeys();
  for (const key of ['history.title', 'history.refund', 'history.printReceipt']) assert.ok(used.has(key), `${key} is found`);
});

test('every message key the renderer asks for exists in en, es and pt', async () => {
  const tables = await loadTables();
  const missing: string[] = [];
  for (const [key, file] of usedKeys()) for (const lang of LANGS) if (typeof tables[lang][key] !== 'string') missing.push(`${lang} ${key} (${file})`);
  assert.deepEqual(missing, [], 'keys without a translation');
});

test('no message text is empty in any language', async () => {
  const tables = await loadTables();
  const empty = LANGS.flatMap((lang) => Object.entries(tables[lang]).filter(([, text]) => text.trim() === '').map(([key]) => `${lang} ${key}`));
  assert.deepEqual(empty, []);
});
