// issue 27 item 6: "a full disk shows the cashier only 'internal'". A full disk is named: the KioskApi answers disk_full
// (its message in es, pt and en on the renderer), nothing stored before is lost, and the same call works once there is
// room. A tiny tmpfs is not available here, so the disk fills the way SQLite itself reports it: PRAGMA max_page_count
// (sqlite.org/pragma.html#pragma_max_page_count) on the core's own connection to a real file makes a write that needs a
// new page fail with SQLITE_FULL, the code a full disk gives (sqlite.org/rescode.html#full). A training core on the
// embedded sandbox and relay, real SQLite in a temp dir.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compose } from '../../../electron/core/compose.ts';
import { openKioskStore, type KioskStore } from '../../../electron/core/store/kiosk-store.ts';
import type { KioskCore } from '../../../electron/core/kiosk-core.ts';
import { MemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { createLogger } from '../../../electron/core/host/logger.ts';
import { dispatch } from '../../../electron/core/api-dispatch.ts';
import { isDiskFull } from '../../../electron/core/store/disk-full.ts';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../../launch/embedded-platform.ts';
import { KIOSK_ERRORS } from '../../../shared/kiosk-errors.ts';
import { common } from '../../../renderer/src/i18n/common.ts';
import { systemClock } from '../../../node-common/time.ts';

const PIN = '2468';
let dir: string;
let platform: EmbeddedPlatform;
let store: KioskStore;
let core: KioskCore;
const logLines: string[] = [];

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-disk-full-'));
  platform = await startEmbeddedPlatform({ dataDir: join(dir, 'training') });
  store = openKioskStore(join(dir, 'kiosk.sqlite'), systemClock);
  core = await compose({
    dataDir: dir,
    platformUrl: platform.platformUrl,
    relay: { url: platform.relayUrl, key: platform.kioskKey },
    training: platform.training,
    vault: new MemoryVault(),
    logger: createLogger({ write: (line) => logLines.push(line) }),
    store,
  });
  await core.start();
  assert.deepEqual(await core.api.setPin({ newPin: PIN }), { ok: true, value: { hasPin: true } });
});

after(async () => {
  await core.stop();
  await platform.close();
  rmSync(dir, { recursive: true, force: true });
});

const item = (i: number) => ({ title: `Medialuna ${i} ${'x'.repeat(120)}`, unitPrice: '1500', unitMeasure: 'unit' as const });

test('a write that finds the disk full answers disk_full, not internal; what was stored stays; it works again with room', async () => {
  const kept = await core.api.saveCatalogItem({ pin: PIN, item: item(0) });
  assert.ok(kept.ok, JSON.stringify(kept) + logLines.join('\n'));

  // No page beyond those the file has now: the next write that needs one fails as on a full disk.
  const pages = store.db.pragma('page_count', { simple: true }) as number;
  store.db.pragma(`max_page_count = ${pages}`);
  let answer: Awaited<ReturnType<KioskCore['api']['saveCatalogItem']>> | null = null;
  let saved = 0;
  for (let i = 1; i <= 500; i += 1) {
    answer = await core.api.saveCatalogItem({ pin: PIN, item: item(i) });
    if (!answer.ok) break;
    saved += 1;
  }
  assert.ok(answer && !answer.ok, 'the file filled up');
  assert.deepEqual(answer.error, { code: 'disk_full', message: KIOSK_ERRORS.disk_full.message, retryable: true });
  assert.ok(logLines.some((line) => line.includes('the disk is full')), 'the log says so too');

  // Through the shells' boundary the same answer.
  const viaDispatch = await dispatch(core.api, 'saveCatalogItem', { pin: PIN, item: item(999) });
  assert.equal(!viaDispatch.ok && viaDispatch.error.code, 'disk_full');

  // Nothing stored before is lost; with room again the very same call succeeds.
  store.db.pragma('max_page_count = 1073741823');
  const list = await core.api.listCatalog({});
  assert.ok(list.ok, JSON.stringify(list));
  assert.equal(list.value.length, 1 + saved);
  assert.ok(list.value.some((row) => row.id === kept.value.id));
  assert.ok((await core.api.saveCatalogItem({ pin: PIN, item: item(1000) })).ok);
});

test('an ENOSPC from the file system, or one wrapped as a cause, is a full disk too; other failures are not', () => {
  const enospc = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
  assert.equal(isDiskFull(enospc), true);
  assert.equal(isDiskFull(new Error('could not save', { cause: enospc })), true);
  assert.equal(isDiskFull(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' })), false);
  assert.equal(isDiskFull('ENOSPC'), false);
});

test("the renderer says it in the kiosk's three languages, each its own words", () => {
  const [en, es, pt] = [common.en['error.disk_full'], common.es['error.disk_full'], common.pt['error.disk_full']] as const;
  assert.match(en, /disk is full/);
  assert.match(es, /disco .* lleno/);
  assert.match(pt, /disco .* cheio/);
  assert.equal(new Set([en, es, pt]).size, 3);
});
