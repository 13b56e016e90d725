// issue 5 "Languages": every error code the kiosk core (or the platform behind it) can answer with has words in en, es
// and pt, so a cashier never reads a bare code. The core has no single exported list of its own codes, so this test
// reads them from the sources (the literals the core puts in a KioskError) and adds the exported platform and
// authorization tables. A new code in the core without a translation fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { common } from '../../../renderer/src/i18n/common.ts';
import { AUTHORIZATION_ERROR_CODES, KNOWN_PLATFORM_CODES } from '../../../electron/core/platform/errors.ts';

const root = join(import.meta.dirname, '..', '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

// How a code is written in the core: a KioskError literal ({ code: 'x' }), a typed error built with a literal code
// (PlatformError(status, 'x'), OutboxRefusedError('x', ...), super(status, 'x')), a refund refusal, and the PIN
// module's reasons (the core passes `result.reason` on as the code).
const CODE_PATTERNS = [
  /\bcode: '([a-z][a-z0-9_]*)'/g,
  /\b(?:PlatformError|OutboxRefusedError|AuthorizationError|super)\(\s*(?:[\w.]+,\s*)?'([a-z][a-z0-9_]*)'/g,
  /\brefusal\(\s*'([a-z][a-z0-9_]*)'/g,
  /\breason: '([a-z][a-z0-9_]*)'/g,
];

/** Every code literal in the main process (core and web shell), with the first file that uses it. */
function codesInSources(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sources(join(root, 'electron'))) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of CODE_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const code = match[1] as string;
        if (!found.has(code)) found.set(code, relative(root, file));
      }
    }
  }
  return found;
}

const tables = { en: common.en as Record<string, string>, es: common.es as Record<string, string>, pt: common.pt as Record<string, string> };

test('the source scan finds the codes the core is known to return (the patterns still match the code)', () => {
  const found = codesInSources();
  for (const code of ['not_connected', 'wrong_pin', 'pin_locked', 'invalid_amount', 'internal', 'unexpected_response', 'order_not_found', 'refund_amount_exceeds']) {
    assert.ok(found.has(code), `${code} is found in electron/`);
  }
});

test('every error code the core or the platform can return has a translation in en, es and pt', () => {
  const codes = new Map(codesInSources());
  for (const code of [...KNOWN_PLATFORM_CODES, ...AUTHORIZATION_ERROR_CODES]) if (!codes.has(code)) codes.set(code, 'electron/core/platform/errors.ts');
  // The renderer's own bridge answers this one when the web shell does not answer (renderer/src/lib/bridge.ts).
  codes.set('shell_unreachable', 'renderer/src/lib/bridge.ts');
  const missing: string[] = [];
  for (const [code, file] of codes) {
    for (const [lang, table] of Object.entries(tables)) {
      const text = table[`error.${code}`];
      if (typeof text !== 'string' || text.trim() === '') missing.push(`${lang} error.${code} (${file})`);
    }
  }
  assert.deepEqual(missing, [], 'codes without words in renderer/src/i18n/common.ts');
});

test('error texts use no placeholder but {message}, and each language has the same error keys', () => {
  const keys = (table: Record<string, string>) => Object.keys(table).filter((k) => k.startsWith('error.')).sort();
  assert.deepEqual(keys(tables.es), keys(tables.en));
  assert.deepEqual(keys(tables.pt), keys(tables.en));
  for (const [lang, table] of Object.entries(tables)) {
    for (const key of keys(table)) {
      const placeholders = [...(table[key] as string).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      assert.ok(placeholders.every((p) => p === 'message'), `${lang} ${key} has only {message}`);
    }
  }
});
