import { z } from 'zod';
import { managerPin as pin } from './schemas/common.ts';

// issue 18 "Support bundle": the part of the KioskApi contract (./kiosk-api.ts spreads it into kioskInputs and
// KioskOutputs) behind Settings → "Save diagnostics". The core builds one .tar.gz a manager can send to support
// (electron/core/support/): the last 7 days of logs (redacted again), versions, settings without secrets, connectivity
// history, the outbox summary (no amounts), the database's integrity check and a manifest.json. No token, client
// secret, relay key, PIN, PIN hash or pepper is ever inside (test/integration/core/support-bundle.test.ts).

/** How many days of logs (and audit entries) a bundle holds. */
export const SUPPORT_BUNDLE_DAYS = 7;

export const supportInputs = {
  /**
   * Builds the support bundle. A manager's PIN (it holds the store's settings and history). Fails with `internal`
   * only when the archive cannot be made; a part that cannot be read (no log folder, a damaged row) is named in the
   * bundle's manifest instead of failing the whole bundle.
   */
  saveDiagnostics: z.strictObject({ pin }),
} as const;

export interface SupportOutputs {
  /**
   * `fileName`: a suggestion for the save dialog (qr-kiosk-diagnostics-<POS>-<UTC time>.tar.gz); `base64`: the
   * archive's bytes (the web shell downloads them, the Electron shell's save dialog writes them); `bytes`: its size.
   */
  saveDiagnostics: { fileName: string; mediaType: 'application/gzip'; base64: string; bytes: number };
}
