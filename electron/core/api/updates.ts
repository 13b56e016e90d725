import projectPackage from '../../../package.json' with { type: 'json' };
import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import type { UpdateStatus } from '../../../shared/update-api.ts';

type UpdatesApi = Pick<KioskApi, 'getUpdateState' | 'updateNow'>;

/**
 * issue 18 "Updates", the core's side: the core never updates the app (it never imports electron). The Electron shell
 * answers both methods from its updater when the installation updates itself (electron/main/kiosk-app.ts); otherwise
 * (the web shell, a deb, a development run) these answers stand: the version, and no automatic updates.
 */
export function updatesApi(deps: CoreServices): UpdatesApi {
  const { guarded } = deps.guards;
  const off = (): UpdateStatus => ({ phase: 'off', version: projectPackage.version, because: 'not_installed' });
  return {
    getUpdateState: guarded('getUpdateState', {}, async () => ok(off())),
    updateNow: guarded('updateNow', { pin: true }, async () => ok(off())),
  };
}
