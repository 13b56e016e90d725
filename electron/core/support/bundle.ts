import { collectDiagnostics, type DiagnosticsSources } from './diagnostics.ts';
import { SUPPORT_BUNDLE_DAYS } from '../../../shared/support-api.ts';

// issue 14 "cold start": the archive code and `tar` load when a manager saves a bundle, not at every start.
const loadArchive = () => import('./archive.ts');

/** A saved bundle as saveDiagnostics answers it: a .tar.gz named for the counter and the time, in base64. */
export interface SupportBundle {
  fileName: string;
  mediaType: 'application/gzip';
  base64: string;
  bytes: number;
}

/**
 * issue 18 "Support bundle": the diagnostics (support/diagnostics.ts), each part redacted again, archived with a
 * manifest that names the parts that could not be read. `posId` names the file (letters, digits and dashes only).
 */
export async function makeSupportBundle(sources: DiagnosticsSources, posId: string): Promise<SupportBundle> {
  const { files, problems } = await collectDiagnostics(sources);
  const createdAt = new Date(sources.clock.now()).toISOString();
  const { buildArchive } = await loadArchive();
  const archive = await buildArchive(files, { bundle: 1, createdAt, days: SUPPORT_BUNDLE_DAYS, problems });
  const pos = posId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 32) || 'kiosk';
  const fileName = `qr-kiosk-diagnostics-${pos}-${createdAt.replace(/[-:.]/g, '').slice(0, 15)}Z.tar.gz`;
  return { fileName, mediaType: 'application/gzip', base64: archive.toString('base64'), bytes: archive.length };
}
