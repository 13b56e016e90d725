// issue 5 "Done when": the JS sent to the counter display is small (under 100 KB gzip). The built renderer
// (renderer/dist, made by `npm run build`, which `npm test` runs first) is measured here as a budget, and it must not
// carry the zod validator: the renderer imports the contract's plain names (shared/kiosk-names.ts), never its schemas.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = join(import.meta.dirname, '..', '..', '..', 'renderer', 'dist', 'assets');
const skip = existsSync(dist) ? false : 'renderer/dist is not built (npm run build)';

test('issue 5: the counter display loads under 100 KB of gzipped JS, without zod', { skip }, () => {
  const scripts = readdirSync(dist).filter((name) => name.endsWith('.js'));
  assert.ok(scripts.length > 0, 'the build has a script');
  let gzipped = 0;
  for (const name of scripts) {
    const text = readFileSync(join(dist, name));
    gzipped += gzipSync(text, { level: 9 }).length;
    assert.doesNotMatch(text.toString('utf8'), /ZodError|\$ZodType/, `${name} bundles zod`);
  }
  assert.ok(gzipped < 100 * 1024, `renderer JS is ${(gzipped / 1024).toFixed(1)} KB gzip`);
});
