// Receipts (issue 6 "Receipts"): printReceipt hands the order to the shell's printer with the printer the manager chose,
// answers printed: false where there is no silent printing (the renderer then shows the print dialog), and a printer
// that refuses is a clear print_failed. The printer here stands in for the Electron shell's (webContents.print cannot
// run without Electron); it records what the core asked of it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReceiptPrinter } from '../../../electron/core/ports.ts';
import { PIN, startTrainingCore, type TrainingCore } from '../../support/kiosk-cores.ts';

/** Stand-in for the Electron shell's ReceiptPrinter (ports.ts): records calls; `failWith` makes the next ones reject. */
class ShellPrinterStandIn implements ReceiptPrinter {
  readonly printed: Array<{ orderId: string; printerName: string | null }> = [];
  failWith: Error | null = null;
  printers = ['EPSON TM-T20', 'Microsoft Print to PDF'];
  async list(): Promise<string[]> {
    if (this.failWith) throw this.failWith;
    return [...this.printers];
  }
  async print(orderId: string, printerName: string | null): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.printed.push({ orderId, printerName });
  }
}

const UNKNOWN_ORDER = 'ORDTST00000000000000000000000';

describe('with a printer (the Electron shell)', () => {
  const printer = new ShellPrinterStandIn();
  let k: TrainingCore;
  before(async () => {
    k = await startTrainingCore({ printer });
  });
  after(async () => {
    await k.close();
  });

  test('the receipt goes to the printer the manager chose (null: the system default)', async () => {
    const created = await k.core.api.createOrder({ amount: '12.00' });
    assert.ok(created.ok);
    assert.deepEqual(await k.core.api.printReceipt({ id: created.value.id }), { ok: true, value: { printed: true } });
    assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { printerName: 'EPSON TM-T20' } })).ok);
    assert.deepEqual(await k.core.api.printReceipt({ id: created.value.id }), { ok: true, value: { printed: true } });
    assert.deepEqual(printer.printed, [
      { orderId: created.value.id, printerName: null },
      { orderId: created.value.id, printerName: 'EPSON TM-T20' },
    ]);
  });

  test('listPrinters is the shell\'s list', async () => {
    assert.deepEqual(await k.core.api.listPrinters({}), { ok: true, value: ['EPSON TM-T20', 'Microsoft Print to PDF'] });
  });

  test('a printer that refuses is print_failed with its reason; a list that cannot be read is printers_unavailable', async () => {
    const created = await k.core.api.createOrder({ amount: '7.00' });
    assert.ok(created.ok);
    printer.failWith = new Error('the printer is out of paper');
    try {
      const failed = await k.core.api.printReceipt({ id: created.value.id });
      assert.ok(!failed.ok);
      assert.equal(failed.error.code, 'print_failed');
      assert.match(failed.error.message, /out of paper/);
      const list = await k.core.api.listPrinters({});
      assert.equal(!list.ok && list.error.code, 'printers_unavailable');
    } finally {
      printer.failWith = null;
    }
  });

  test('an order this kiosk does not know is order_not_found, and nothing is printed', async () => {
    const before = printer.printed.length;
    const missing = await k.core.api.printReceipt({ id: UNKNOWN_ORDER });
    assert.equal(!missing.ok && missing.error.code, 'order_not_found');
    assert.equal(printer.printed.length, before);
  });
});

describe('without a printer (the web shell)', () => {
  test('printed: false (the renderer prints through the dialog); no printers; an unknown order is still order_not_found', async () => {
    const k = await startTrainingCore();
    try {
      const created = await k.core.api.createOrder({ amount: '3.00' });
      assert.ok(created.ok);
      assert.deepEqual(await k.core.api.printReceipt({ id: created.value.id }), { ok: true, value: { printed: false } });
      assert.deepEqual(await k.core.api.listPrinters({}), { ok: true, value: [] });
      const missing = await k.core.api.printReceipt({ id: UNKNOWN_ORDER });
      assert.equal(!missing.ok && missing.error.code, 'order_not_found');
    } finally {
      await k.close();
    }
  });
});
