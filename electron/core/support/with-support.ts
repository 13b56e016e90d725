import { join } from 'node:path';
import type { KioskCore, KioskCoreOptions } from '../kiosk-core.ts';
import type { CoreServices } from '../api/services.ts';
import { ok } from '../api/guards.ts';
import { collectDiagnostics, type ConnectivityChange } from './diagnostics.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import { SUPPORT_BUNDLE_DAYS } from '../../../shared/support-api.ts';

// issue 18 "Support bundle": the core of compose() with saveDiagnostics, and the connectivity history it reports
// (kept in memory from the core's own connectivity.changed events: the core stores none). Kept here so that
// compose.ts wires it in one expression.

// issue 14 "cold start": the archive code and `tar` load when a manager saves a bundle, not at every start.
const loadArchive = () => import('./archive.ts');

/** The connectivity changes kept for the bundle; older ones are dropped first. */
const HISTORY_LIMIT = 500;

/** The core without the support bundle, as compose builds it. */
export type CoreWithoutSupport = Omit<KioskCore, 'api'> & { api: Omit<KioskApi, 'saveDiagnostics'> };

export function withSupport(services: CoreServices, options: Pick<KioskCoreOptions, 'dataDir' | 'logsDir'>, core: CoreWithoutSupport): KioskCore {
  const history: ConnectivityChange[] = [];
  const unsubscribe = core.events.subscribe((event) => {
    if (event.type !== 'connectivity.changed') return;
    history.push({ at: new Date(services.clock.now()).toISOString(), ...event.connectivity });
    if (history.length > HISTORY_LIMIT) history.shift();
  });
  const saveDiagnostics = services.guards.guarded('saveDiagnostics', { pin: true }, async () => {
    const { files, problems } = await collectDiagnostics({
      clock: services.clock,
      db: services.db,
      logsDir: options.logsDir ?? join(options.dataDir, 'logs'),
      training: services.training !== null,
      settings: services.settings,
      relayKeySaved: () => services.savedRelayKey() !== null,
      session: services.sessionState,
      connectivity: services.connectivity,
      connectivityHistory: () => history,
      outbox: () => services.outbox.list(),
      audit: (limit) => services.audit.list(limit),
      secrets: () => core.secrets(),
      platformAnswers: () => services.platformAnswers?.list() ?? [],
    });
    const createdAt = new Date(services.clock.now()).toISOString();
    const { buildArchive } = await loadArchive();
    const archive = await buildArchive(files, { bundle: 1, createdAt, days: SUPPORT_BUNDLE_DAYS, problems });
    const pos = services.settings().posId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 32) || 'kiosk';
    const fileName = `qr-kiosk-diagnostics-${pos}-${createdAt.replace(/[-:.]/g, '').slice(0, 15)}Z.tar.gz`;
    services.audit.append({ actor: 'manager', action: 'diagnostics.saved', subject: null, detail: { bytes: archive.length } });
    return ok({ fileName, mediaType: 'application/gzip' as const, base64: archive.toString('base64'), bytes: archive.length });
  });
  return {
    ...core,
    api: { ...core.api, saveDiagnostics },
    async stop() {
      unsubscribe();
      await core.stop();
    },
  };
}
