// issue 5 "Languages": the words for the error codes (renderer/src/i18n/common.ts). That every code the core or the
// platform can answer with has words in en, es and pt, and no dead ones, is checked by the compiler since issue 13
// (the tables are typed by KioskError.code, shared/kiosk-errors.ts); what remains here is what types cannot say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { common } from '../../../renderer/src/i18n/common.ts';
import type { Message } from '../../../renderer/src/i18n/messages.ts';

// Error texts are plain texts (no count); other messages of the table may be plural forms.
const tables: Record<'en' | 'es' | 'pt', Readonly<Record<string, Message>>> = { en: common.en, es: common.es, pt: common.pt };

test('error texts use no placeholder but {message}, and each language has the same error keys', () => {
  const keys = (table: Readonly<Record<string, Message>>) => Object.keys(table).filter((k) => k.startsWith('error.')).sort();
  assert.deepEqual(keys(tables.es), keys(tables.en));
  assert.deepEqual(keys(tables.pt), keys(tables.en));
  for (const [lang, table] of Object.entries(tables)) {
    for (const key of keys(table)) {
      const placeholders = [...(table[key] as string).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      assert.ok(placeholders.every((p) => p === 'message'), `${lang} ${key} has only {message}`);
    }
  }
});
