// issue 6 "Receipts: ... printed silently by Electron to the configured printer" — the ReceiptPrinter port
// (electron/core/ports.ts) over the mocked `electron` module's windows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Logger } from '../../../electron/core/ports.ts';
import { createReceiptPrinter, type ReceiptWindow } from '../../../electron/main/receipt-printer.ts';
import { appUrl } from '../../../electron/main/app-protocol.ts';
import { MockBrowserWindow, MockWebContents } from '../../support/fakes/electron-mock.ts';

const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const ORDER = 'ORDTST01JABCDEFGHJKMNPQRSTVW';

function printerWith(setup: (contents: MockWebContents) => void = () => undefined) {
  const windows: MockBrowserWindow[] = [];
  const system = new MockWebContents();
  let maxOpen = 0;
  const printer = createReceiptPrinter({
    openWindow: () => {
      maxOpen = Math.max(maxOpen, 1 + windows.filter((w) => !w.destroyed).length);
      const window = new MockBrowserWindow({ show: false });
      setup(window.webContents);
      windows.push(window);
      return window as unknown as ReceiptWindow;
    },
    receiptUrl: (id) => appUrl(`#/receipt/${id}`),
    printers: () => system.getPrintersAsync(),
    logger: quiet,
    renderTimeoutMs: 2_000,
    pollMs: 5,
  });
  return { printer, windows, maxOpen: () => maxOpen };
}

test('issue 6: a receipt is rendered from the #/receipt/<id> route and printed silently to the chosen printer, 80 mm wide and as long as the receipt', async () => {
  const { printer, windows } = printerWith();
  await printer.print(ORDER, 'TM-T20');
  const [window] = windows;
  assert.deepEqual(window?.webContents.loaded, [`kiosk://app/index.html#/receipt/${ORDER}`]);
  const options = window?.webContents.printed[0]?.options as Record<string, unknown>;
  assert.equal(options.silent, true);
  assert.equal(options.deviceName, 'TM-T20');
  assert.deepEqual(options.pageSize, { width: 80_000, height: 123_000 }, 'microns: the page the receipt route sized itself to');
  assert.equal('usePrinterDefaultPageSize' in options, false, 'Electron refuses both at once');
  assert.deepEqual(options.margins, { marginType: 'none' });
  assert.equal(window?.destroyed, true, 'the hidden window is closed after printing');
});

test('issue 6: no printer configured prints to the system default (no deviceName)', async () => {
  const { printer, windows } = printerWith();
  await printer.print(ORDER, null);
  const options = windows[0]?.webContents.printed[0]?.options as Record<string, unknown>;
  assert.equal('deviceName' in options, false);
});

test('issue 6: a receipt page that names no length prints on the printer\'s own paper size; an absurd length is capped', async () => {
  const unsized = printerWith((contents) => (contents.script = () => 0));
  await unsized.printer.print(ORDER, null);
  const options = unsized.windows[0]?.webContents.printed[0]?.options as Record<string, unknown>;
  assert.equal(options.usePrinterDefaultPageSize, true);
  assert.equal('pageSize' in options, false);
  const huge = printerWith((contents) => (contents.script = () => 1e9));
  await huge.printer.print(ORDER, null);
  assert.deepEqual((huge.windows[0]?.webContents.printed[0]?.options as Record<string, unknown>).pageSize, { width: 80_000, height: 2_000_000 });
});

test('issue 6: a printer that is not installed is refused with its name, before anything is rendered', async () => {
  const { printer, windows } = printerWith();
  await assert.rejects(printer.print(ORDER, 'Old printer'), /"Old printer" is not installed/);
  assert.equal(windows.length, 0);
});

test('issue 6: a printer that refuses the job rejects with its reason, and the window is still closed', async () => {
  const { printer, windows } = printerWith((contents) => (contents.printOutcome = [false, 'Print job failed']));
  await assert.rejects(printer.print(ORDER, 'TM-T20'), /did not take the receipt \(Print job failed\)/);
  assert.equal(windows[0]?.destroyed, true);
});

test('issue 6: a receipt the route cannot draw (unknown order) is never printed', async () => {
  const { printer, windows } = printerWith((contents) => (contents.script = () => 'error'));
  await assert.rejects(printer.print(ORDER, null), /not known to this kiosk/);
  assert.equal(windows[0]?.webContents.printed.length, 0);
  assert.equal(windows[0]?.destroyed, true);
});

test('issue 6: printing waits for the receipt to render, and gives up (printing nothing) if it never does', async () => {
  let probes = 0;
  const { printer, windows } = printerWith((contents) => (contents.script = () => (++probes < 3 ? 'waiting' : 90)));
  await printer.print(ORDER, null);
  assert.equal(probes, 3);
  assert.equal(windows[0]?.webContents.printed.length, 1);

  const stuck = printerWith((contents) => (contents.script = () => 'waiting'));
  await assert.rejects(stuck.printer.print(ORDER, null), /did not finish rendering/);
  assert.equal(stuck.windows[0]?.webContents.printed.length, 0);
});

test('issue 6: receipts print one at a time, in order, and the list names the system printers', async () => {
  const { printer, windows, maxOpen } = printerWith();
  await Promise.all([printer.print(ORDER, null), printer.print(ORDER.replace('W', 'X'), null)]);
  assert.deepEqual(windows.map((w) => w.webContents.loaded[0]?.slice(-3)), [ORDER.slice(-3), ORDER.replace('W', 'X').slice(-3)]);
  assert.equal(maxOpen(), 1, 'never two receipt windows at once');
  assert.deepEqual(await printer.list(), ['TM-T20']);
});
