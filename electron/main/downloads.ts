import type { DownloadItem, Session } from 'electron';
import type { Logger } from '../core/ports.ts';
import { APP_ORIGIN } from './app-protocol.ts';

export type DownloadingSession = Pick<Session, 'on'>;
export type SavableDownload = Pick<DownloadItem, 'getURL' | 'getFilename' | 'setSaveDialogOptions'>;

/**
 * issue 18 "Support bundle": the page saves what the core made (the diagnostics .tar.gz, the counter QR's PDF) as a
 * download of a blob: URL of the app itself; Electron then asks where with the system's save dialog (no save path is
 * set here, so the manager chooses it), starting in the user's downloads folder with the name the core proposed.
 * Any other download (a remote file: nothing remote loads anyway, lockdown.ts) is cancelled and logged.
 */
export function guardDownloads(session: DownloadingSession, logger: Logger): void {
  session.on('will-download', (event: { preventDefault(): void }, item: SavableDownload) => {
    const url = item.getURL();
    if (!url.startsWith(`blob:${APP_ORIGIN}/`)) {
      event.preventDefault();
      logger.warn('download denied', { url: url.slice(0, 200) });
      return;
    }
    item.setSaveDialogOptions({ defaultPath: item.getFilename() });
  });
}
