import { z } from 'zod';
import { managerPin as pin } from './schemas/common.ts';

// issue 18 "Updates": the part of the KioskApi contract (./kiosk-api.ts spreads it into kioskInputs and KioskOutputs)
// behind Settings → "Software update". The Electron shell answers both from its updater (electron/main/updater/);
// a kiosk that does not update itself (the web shell, a deb install, a development run) answers `off`.

/** Why a ready update has not installed yet (electron/main/updater/update-policy.ts). */
export type UpdateWaitReason = 'charge_waiting' | 'refund_sending' | 'outbox_waiting' | 'outside_window';

export type UpdateStatus =
  | { phase: 'off'; version: string; because: 'no_feed' | 'not_installed' | 'deb' }
  | { phase: 'checking'; version: string }
  | { phase: 'up_to_date'; version: string; checkedAt: string }
  | { phase: 'downloading'; version: string; available: string }
  /** Downloaded and checked; installs when the counter is idle inside the window (or after a manager's tap). */
  | { phase: 'ready'; version: string; available: string; waitingFor: UpdateWaitReason; managerAsked: boolean }
  | { phase: 'installing'; version: string; available: string }
  /**
   * A failed check or download, a file whose sha512 did not match, or (issue 27) a release not signed by the key
   * pinned in this installation (or no key pinned): never installed, tried again at `retryAt`.
   */
  | { phase: 'failed'; version: string; because: 'feed' | 'download' | 'checksum' | 'signature'; message: string; retryAt: string };

export const updateInputs = {
  getUpdateState: z.strictObject({}),
  /**
   * A manager's "update now": checks the feed at once and installs as soon as the counter is idle, even outside the
   * maintenance window. Never while a charge waits or a refund is sending. Answers the state after the check.
   */
  updateNow: z.strictObject({ pin }),
} as const;

export interface UpdateOutputs {
  getUpdateState: UpdateStatus;
  updateNow: UpdateStatus;
}
