// issue 5 "Languages": every text exists in en, es and pt. Since issue 13 the compiler checks most of it: each area's es
// and pt tables are typed by its English one (renderer/src/i18n/messages.ts, Translation), and t() takes only keys of
// the tables (renderer/src/i18n/translate.ts, MessageKey), so a key a component asks for that is missing, and a key
// missing or extra in a language, fail svelte-check (run by test/unit/layering.test.ts). The source scan for literal
// keys that this file had is gone with it. What remains here is what types cannot say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tables } from '../../../renderer/src/i18n/translate.ts';
import type { Message } from '../../../renderer/src/i18n/messages.ts';

const LANGS = ['en', 'es', 'pt'] as const;
/** Every text of a message: the text itself, or each of its plural forms. */
const textsOf = (message: Message): string[] => (typeof message === 'string' ? [message] : Object.values(message));

test('each language has exactly the English keys, a plural where English has one (the merged tables too)', () => {
  const shape = (table: Readonly<Record<string, Message>>) => Object.entries(table).map(([key, message]) => `${key}:${typeof message}`).sort();
  assert.ok(Object.keys(tables.en).length > 100, 'the tables are merged');
  assert.deepEqual(shape(tables.es), shape(tables.en));
  assert.deepEqual(shape(tables.pt), shape(tables.en));
});

test('no message text is empty in any language, nor any plural form', () => {
  const empty = LANGS.flatMap((lang) =>
    Object.entries(tables[lang] as Readonly<Record<string, Message>>)
      .filter(([, message]) => textsOf(message).some((text) => text.trim() === ''))
      .map(([key]) => `${lang} ${key}`),
  );
  assert.deepEqual(empty, []);
});

test('every plural form of a message says its {count}, and its forms ask for the same placeholders', () => {
  const wrong: string[] = [];
  for (const lang of LANGS) {
    for (const [key, message] of Object.entries(tables[lang] as Readonly<Record<string, Message>>)) {
      if (typeof message === 'string') continue;
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
      const forms = Object.values(message);
      if (!forms.every((text) => text.includes('{count}'))) wrong.push(`${lang} ${key}: a form without {count}`);
      if (new Set(forms.map(names)).size !== 1) wrong.push(`${lang} ${key}: forms with different placeholders`);
    }
  }
  assert.deepEqual(wrong, []);
});
