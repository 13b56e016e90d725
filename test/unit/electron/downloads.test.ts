// issue 18 "Support bundle": in the Electron shell the page's own downloads (the diagnostics file) go through the save
// dialog with the name the core proposed; any other download is cancelled — with the mocked `electron` module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Logger } from '../../../electron/core/ports.ts';
import { guardDownloads, type DownloadingSession, type SavableDownload } from '../../../electron/main/downloads.ts';
import { MockEvent, MockSession } from '../../support/fakes/electron-mock.ts';

function download(url: string) {
  const options: unknown[] = [];
  const item: SavableDownload = {
    getURL: () => url,
    getFilename: () => 'qr-kiosk-diagnostics-CAJA-1-20261125T004846Z.tar.gz',
    setSaveDialogOptions: (o) => void options.push(o),
  };
  return { item, options };
}

test('issue 18: the app\'s own blob download asks where to save it; a remote one is cancelled', () => {
  const session = new MockSession();
  const lines: string[] = [];
  const logger: Logger = { info: () => undefined, warn: (m) => void lines.push(m), error: () => undefined };
  guardDownloads(session as unknown as DownloadingSession, logger);
  const willDownload = session.listeners.get('will-download');
  assert.ok(willDownload, 'the session listens for downloads');

  const own = download('blob:kiosk://app/0b6c2e0e-6b1f-4f38-9d3a-1c2b3d4e5f60');
  const ownEvent = new MockEvent({});
  willDownload(ownEvent, own.item);
  assert.equal(ownEvent.defaultPrevented, false);
  assert.deepEqual(own.options, [{ defaultPath: 'qr-kiosk-diagnostics-CAJA-1-20261125T004846Z.tar.gz' }]);

  for (const url of ['https://evil.example/file.exe', 'blob:https://evil.example/0b6c', 'kiosk://app/index.html']) {
    const other = download(url);
    const event = new MockEvent({});
    willDownload(event, other.item);
    assert.equal(event.defaultPrevented, true, `${url} is cancelled`);
    assert.deepEqual(other.options, []);
  }
  assert.ok(lines.includes('download denied'));
});
