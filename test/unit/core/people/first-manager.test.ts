// issue 17 "People": the renderer shows the first manager's stored default name in the kiosk's language while the owner
// has not renamed them (renderer/src/components/people/cashier.svelte.ts personName). That works only while the people
// migration stores exactly FIRST_MANAGER: this pins the two together. Real SQLite file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKioskStore } from '../../../../electron/core/store/kiosk-store.ts';
import { composeDay } from '../../../../electron/core/people/day-services.ts';
import { MemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { FIRST_MANAGER } from '../../../../shared/kiosk-names.ts';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

test('a new kiosk stores its first manager as FIRST_MANAGER (the id and default name the screens translate)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-first-manager-'));
  const clock = { now: () => Date.UTC(2026, 0, 15, 12) };
  const store = openKioskStore(join(dir, 'kiosk.sqlite'), clock);
  const day = await composeDay({ store, vault: new MemoryVault(), clock, logger });
  try {
    const first = day.people.list().find((person) => person.id === FIRST_MANAGER.id);
    assert.deepEqual(first && { id: first.id, name: first.name, role: first.role }, { ...FIRST_MANAGER, role: 'manager' });
  } finally {
    day.stop();
    store.db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
