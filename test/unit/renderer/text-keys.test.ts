// issue 15 "Keyboards": the on-screen text keyboard's rules (renderer/src/components/text-keys.ts, used by
// TextKeyboard.svelte): one-shot shift and caps lock, a capital at a sentence's start, the accents of each language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DOUBLE_TAP_MS, letterLayout, shiftAfter, startsSentence, symbolsPageAccents, tapShift } from '../../../renderer/src/components/text-keys.ts';
import { LANGUAGES } from '../../../shared/kiosk-names.ts';

test('one tap shifts one letter; a double tap locks; a tap while shifted or locked turns it off', () => {
  assert.equal(tapShift('off', 1000, null), 'once');
  assert.equal(tapShift('once', 5000, 1000), 'off', 'a slow second tap undoes the first');
  assert.equal(tapShift('once', 1000 + DOUBLE_TAP_MS - 1, 1000), 'lock');
  assert.equal(tapShift('lock', 9000, null), 'off');
  assert.equal(tapShift('lock', 1100, 1000), 'off', 'a quick tap on a lock still releases it');
  // A capital the field offered by itself (no tap) is turned off by one tap, never locked.
  assert.equal(tapShift('once', 1000, null), 'off');
});

test('after a letter the one-shot shift is spent; a lock stays', () => {
  assert.equal(shiftAfter('once', 'C', false), 'off');
  assert.equal(shiftAfter('once', 'C', true), 'off');
  assert.equal(shiftAfter('lock', 'CA', true), 'lock');
  assert.equal(shiftAfter('off', 'Ca', false), 'off');
});

test('free text starts each sentence with a capital', () => {
  for (const text of ['', '   ', 'Sin sal. ', 'Listo! ', '¿', 'Hola? ']) assert.equal(startsSentence(text), true, JSON.stringify(text));
  for (const text of ['C', 'Café ', 'mesa 4', 'Sr.', 'a, ']) assert.equal(startsSentence(text), false, JSON.stringify(text));
  assert.equal(shiftAfter('off', 'Sin sal. ', true), 'once');
  assert.equal(shiftAfter('off', '', true), 'once', 'deleting everything starts over with a capital');
  assert.equal(shiftAfter('off', '', false), 'off', 'codes, URLs and secrets never capitalize by themselves');
});

test('es and pt have their accents on the first page, each letter once; the rest are on the symbols page', () => {
  const first = (language: (typeof LANGUAGES)[number]) => {
    const { rows, accents } = letterLayout(language);
    return rows.join('') + accents;
  };
  for (const char of 'áéíóúñü') assert.ok(first('es-AR').includes(char), `es ${char}`);
  for (const char of 'áâãàéêíóôõúç') assert.ok(first('pt-BR').includes(char), `pt ${char}`);
  for (const char of 'áéíóúñü') assert.ok(first('en').includes(char), `en ${char}`);
  for (const language of LANGUAGES) {
    const keys = [...first(language)];
    assert.equal(new Set(keys).size, keys.length, `${language}: no key twice (each has one data-testid)`);
    const everywhere = first(language) + symbolsPageAccents(language);
    for (const char of 'áéíóúãõâêôàçñü') assert.ok(everywhere.includes(char), `${language} reaches ${char}`);
    for (const char of symbolsPageAccents(language)) assert.ok(!first(language).includes(char), `${language}: ${char} once`);
  }
  assert.equal(letterLayout('es-CL'), letterLayout('es-UY'));
});
