import { z } from 'zod';
import { managerPin as pin } from './schemas/common.ts';
import type { SETTINGS, SettingsViewOf } from './settings-table.ts';
import { settingsPatchSchema } from './settings-schemas.ts';

// The settings part of the KioskApi contract (./kiosk-api.ts spreads it into kioskInputs and KioskOutputs): the
// settings, the manager PIN that guards them (issue 5, issue 12) and the training reset. The settings themselves are
// the rows of ./settings-table.ts (issue 28): the patch and the answer's type derive from it.

/** What getSettings and updateSettings answer: the settings in force (secrets only as `<name>Set`), plus the two facts below. */
export type KioskSettings = SettingsViewOf<typeof SETTINGS> & {
  /** The platform this kiosk talks to (launch/kiosk-config.ts); null: the embedded sandbox. Not a setting. */
  platformUrl: string | null;
  /** Whether a manager PIN is set (Settings asks to choose one first). */
  hasPin: boolean;
};

export const settingsInputs = {
  getSettings: z.strictObject({}),
  /** Only the settings given change; null forgets a name, a feed URL or the relay key (./settings-table.ts says which). */
  updateSettings: z.strictObject({ pin, patch: settingsPatchSchema }),
  setPin: z.strictObject({ currentPin: pin.optional(), newPin: pin }),
  verifyPin: z.strictObject({ pin }),
  /**
   * Training mode only (issue 15 "First five minutes"): forgets this kiosk's sales, their refunds and cancels, so a
   * trainer starts afresh; the catalog, settings and PIN stay. Refused while a sale is open or an item is being sent.
   */
  resetTraining: z.strictObject({ pin }),
} as const;

export interface SettingsOutputs {
  getSettings: KioskSettings;
  updateSettings: KioskSettings;
  setPin: { hasPin: true };
  verifyPin: { valid: true };
  /** How many sales and outbox items were forgotten. */
  resetTraining: { orders: number; outboxItems: number };
}
