import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import { makeSupportBundle } from '../support/bundle.ts';
import type { ConnectivityChange } from '../support/diagnostics.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';

export interface DiagnosticsSupport {
  /** The Electron shell's log folder (kiosk.log), whose last days go into the bundle. */
  logsDir: string;
  connectivityHistory(): readonly ConnectivityChange[];
  /** The running kiosk's secrets (KioskCore.secrets()), for the bundle's second redaction. */
  secrets(): string[];
}

/** issue 18 "Support bundle": a manager saves the kiosk's diagnostics (support/bundle.ts); the audit log says so. */
export function diagnosticsApi(services: CoreServices, support: DiagnosticsSupport): Pick<KioskApi, 'saveDiagnostics'> {
  return {
    saveDiagnostics: services.guards.guarded('saveDiagnostics', { pin: true }, async () => {
      const bundle = await makeSupportBundle(
        {
          clock: services.clock,
          db: services.db,
          logsDir: support.logsDir,
          training: services.training !== null,
          settings: services.settings,
          relayKeySaved: () => services.savedRelayKey() !== null,
          session: services.sessionState,
          connectivity: services.connectivity,
          connectivityHistory: support.connectivityHistory,
          outbox: () => services.outbox.list(),
          audit: (limit) => services.audit.list(limit),
          secrets: support.secrets,
          platformAnswers: () => services.platformAnswers?.list() ?? [],
        },
        services.settings().posId,
      );
      services.audit.append({ actor: 'manager', action: 'diagnostics.saved', subject: null, detail: { bytes: bundle.bytes } });
      return ok(bundle);
    }),
  };
}
