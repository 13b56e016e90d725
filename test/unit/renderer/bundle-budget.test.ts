// issue 5 "Done when": the JS sent to the counter display is small (under 100 KB gzip). The built renderer
// (renderer/dist, made by `npm run build`, which `npm test` runs first) is measured here as a budget, and it must not
// carry the zod validator: the renderer imports the contract's plain names (shared/kiosk-names.ts), never its schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tables } from '../../../renderer/src/i18n/translate.ts';

const dist = join(import.meta.dirname, '..', '..', '..', 'renderer', 'dist', 'assets');
const skip = existsSync(dist) ? false : 'renderer/dist is not built (npm run build)';
/** issue 14 "cold start": each language's words are a chunk of their own (renderer/vite.config.ts, languageTables). */
const LANGUAGE_CHUNK = /^lang-(en|es|pt)-[\w-]+\.js$/;

// What a display downloads: the first script and every screen's chunk (each loaded when first shown, all counted),
// with the words of the language it shows; another language's words come only when a manager switches to it. So
// every script counts except the other languages': the largest language is the one counted.
test('issue 5: the counter display loads under 100 KB of gzipped JS, without zod', { skip }, () => {
  const scripts = readdirSync(dist).filter((name) => name.endsWith('.js'));
  assert.ok(scripts.length > 0, 'the build has a script');
  let gzipped = 0;
  let largestLanguage = 0;
  for (const name of scripts) {
    const text = readFileSync(join(dist, name));
    const size = gzipSync(text, { level: 9 }).length;
    if (LANGUAGE_CHUNK.test(name)) largestLanguage = Math.max(largestLanguage, size);
    else gzipped += size;
    assert.doesNotMatch(text.toString('utf8'), /ZodError|\$ZodType/, `${name} bundles zod`);
  }
  gzipped += largestLanguage;
  assert.ok(gzipped < 100 * 1024, `renderer JS is ${(gzipped / 1024).toFixed(1)} KB gzip`);
});

test('issue 14: each language is a chunk of its own, with its words only; no other script carries a table', { skip }, () => {
  const scripts = readdirSync(dist).filter((name) => name.endsWith('.js'));
  const languages = scripts.filter((name) => LANGUAGE_CHUNK.test(name));
  assert.deepEqual(languages.map((name) => LANGUAGE_CHUNK.exec(name)?.[1]).sort(), ['en', 'es', 'pt']);
  // A text each language words differently: found in its own chunk and in no other script.
  const word = { en: tables.en['sale.title'], es: tables.es['sale.title'], pt: tables.pt['sale.title'] };
  for (const name of scripts) {
    const text = readFileSync(join(dist, name), 'utf8');
    const own = LANGUAGE_CHUNK.exec(name)?.[1];
    for (const [lang, title] of Object.entries(word)) {
      assert.equal(text.includes(JSON.stringify(title).slice(1, -1)), lang === own, `${name} ${lang === own ? 'lacks' : 'carries'} the ${lang} words ("${title}")`);
    }
  }
});
