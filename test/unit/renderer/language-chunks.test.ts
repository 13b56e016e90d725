// issue 5 "Done when" (under 100 KB gzip): the build ships each language as [messages by short id, messages by key]
// and turns the sources' key literals into those ids (renderer/vite.config.ts, messageIds). These tests read the built
// renderer/dist (made by `npm run build`, which `npm test` runs first) and prove nothing was lost on the way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tables } from '../../../renderer/src/i18n/translate.ts';

const dist = join(import.meta.dirname, '..', '..', '..', 'renderer', 'dist', 'assets');
const skip = existsSync(dist) ? false : 'renderer/dist is not built (npm run build)';
const langs = ['en', 'es', 'pt'] as const;
/** renderer/src/i18n/load-language.ts ShippedLanguage (that module needs the renderer's ambient types, not the tests'). */
type ShippedLanguage = readonly [byId: readonly unknown[], byKey: Readonly<Record<string, unknown>>];

async function shipped(lang: (typeof langs)[number]): Promise<ShippedLanguage> {
  const name = readdirSync(dist).find((file) => file.startsWith(`lang-${lang}-`) && file.endsWith('.js'));
  assert.ok(name, `the build has a ${lang} chunk`);
  return ((await import(pathToFileURL(join(dist, name)).href)) as { default: ShippedLanguage }).default;
}

test('issue 5: each shipped language holds every message of its table once, the same keys shortened in every language', { skip }, async () => {
  const byIdLengths = new Set<number>();
  for (const lang of langs) {
    const [byId, byKey] = await shipped(lang);
    const table: Readonly<Record<string, unknown>> = tables[lang];
    byIdLengths.add(byId.length);
    for (const [key, message] of Object.entries(byKey)) assert.deepEqual(message, table[key], `${lang} ${key}`);
    assert.equal(byId.length + Object.keys(byKey).length, Object.keys(table).length, `${lang}: every key shipped once`);
    // What is not shipped by name is shipped by id: the same messages, as many times.
    const rest = Object.entries(table).filter(([key]) => !Object.hasOwn(byKey, key)).map(([, message]) => JSON.stringify(message)).sort();
    assert.deepEqual(byId.map((message) => JSON.stringify(message)).sort(), rest, `${lang}: the messages by id`);
  }
  assert.equal(byIdLengths.size, 1, 'the three languages shorten the same keys');
});

test('issue 5: keys the renderer builds at run time keep their names (lookup finds `error.${code}`, `status.${status}`)', { skip }, async () => {
  for (const lang of langs) {
    const [, byKey] = await shipped(lang);
    for (const key of ['error.network_error', 'error.wrong_pin', 'status.canceled', 'settings.country.AR']) {
      assert.ok(Object.hasOwn(byKey, key), `${lang} ships ${key} by name`);
    }
  }
});

test('issue 5: the scripts call the shortened keys by id, not by name', { skip }, () => {
  const scripts = readdirSync(dist).filter((file) => file.endsWith('.js') && !file.startsWith('lang-'));
  const text = scripts.map((file) => readFileSync(join(dist, file), 'utf8')).join('\n');
  for (const key of ['sale.charge', 'app.noKey.title']) assert.ok(!text.includes(`"${key}"`) && !text.includes(`'${key}'`) && !text.includes(`\`${key}\``), `${key} is spelled in a script`);
});
