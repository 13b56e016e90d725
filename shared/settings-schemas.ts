import { z } from 'zod';
import { printableText } from './schemas/common.ts';
import { SETTINGS, type SchemaKit, type SettingsPatchOf, type SettingsTable, type StoredSettingsOf } from './settings-table.ts';

// issue 28: the settings table's schemas (./settings-table.ts holds the rows; this file alone brings zod to them, so
// the renderer can read the table without the validator).

const kit: SchemaKit = { z, printable: printableText };

/** The `updateSettings` patch: every setting of the table, optional; null where the row allows it; nothing else. */
export function patchSchemaOf<T extends SettingsTable>(table: T): z.ZodType<SettingsPatchOf<T>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, row] of Object.entries(table)) {
    const value = row.value(kit);
    shape[name] = (row.nullable ? value.nullable() : value).optional();
  }
  return z.strictObject(shape) as unknown as z.ZodType<SettingsPatchOf<T>>;
}

/**
 * What stored rows are read back with (and written with: settings-repo checks both ways): the public settings,
 * optional, by the row's stored rule where it has one. A value that does not fit makes the whole key a DamagedRowError
 * naming it (electron/core/store/settings-repo.ts), never a silent default; a name no row has any more is dropped.
 * A nullable setting reads a stored null back as null (its default is null, or null is the choice).
 */
export function storedSchemaOf<T extends SettingsTable>(table: T): z.ZodType<StoredSettingsOf<T>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, row] of Object.entries(table)) {
    if (row.secret) continue;
    const value = (row.stored ?? row.value)(kit);
    shape[name] = (row.nullable ? value.nullable() : value).optional();
  }
  return z.object(shape) as unknown as z.ZodType<StoredSettingsOf<T>>;
}

export const settingsPatchSchema = patchSchemaOf(SETTINGS);
export const storedSettingsSchema = storedSchemaOf(SETTINGS);
