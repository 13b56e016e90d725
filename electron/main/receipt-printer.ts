import type { WebContents, WebContentsPrintOptions } from 'electron';
import type { Logger, ReceiptPrinter } from '../core/ports.ts';

/** issue 6: an 80 mm receipt. */
const RECEIPT_WIDTH_MM = 80;
/** A receipt longer than this (a page that measured itself wrongly) is cut at it rather than feeding metres of paper. */
const MAX_RECEIPT_MM = 2000;

export interface ReceiptWindow {
  webContents: Pick<WebContents, 'loadURL' | 'executeJavaScript' | 'print'>;
  destroy(): void;
  isDestroyed(): boolean;
}

export interface ReceiptPrinterOptions {
  /** A new hidden window with the app's preload, registered with the IPC (it reads the order through KioskApi). */
  openWindow: () => ReceiptWindow;
  /** The renderer route of one order's receipt, e.g. kiosk://app/index.html#/receipt/<id>. */
  receiptUrl: (orderId: string) => string;
  /** The system's printers (webContents.getPrintersAsync of any window). */
  printers: () => Promise<Array<{ name: string }>>;
  logger: Logger;
  /** How long the receipt may take to render before printing is given up. */
  renderTimeoutMs?: number;
  pollMs?: number;
}

/**
 * What the receipt route (renderer/src/App.svelte) shows: `data-receipt-ready="true"` once the order is drawn and the
 * page is sized to it (a `@page { size: 80mm <h>mm }` rule in a stylesheet adopted by the document, since the CSP
 * refuses <style> elements: renderer/src/lib/print.svelte.ts);
 * `data-receipt-error` when the order is unknown. Fonts are awaited so the printout is not taken in a fallback face.
 * Answers 'waiting', 'error', or the receipt's length in millimetres (0 when the page names none).
 */
export const RECEIPT_READY_PROBE = `(async () => {
  if (document.querySelector('[data-receipt-error]')) return 'error';
  if (!document.querySelector('[data-receipt-ready="true"]')) return 'waiting';
  await document.fonts.ready;
  const rules = [...document.adoptedStyleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText));
  const size = /size:\\s*80mm\\s+(\\d+(?:\\.\\d+)?)mm/.exec(rules.join(' '));
  return size ? Number(size[1]) : 0;
})()`;

/**
 * Silent receipt printing for the Electron shell (issue 6 "Receipts"; the port is electron/core/ports.ts): renders
 * the renderer's `#/receipt/<id>` route in a hidden window and prints it with no dialog to the configured printer
 * (null: the system default) on paper 80 mm wide and as long as the receipt, so a roll printer feeds no blank paper
 * (the printer's own page size when the page names none), with no margins.
 * Prints one at a time; every failure rejects with a message the cashier can act on, and the window is always closed.
 */
export function createReceiptPrinter(options: ReceiptPrinterOptions): ReceiptPrinter {
  const renderTimeoutMs = options.renderTimeoutMs ?? 15_000;
  const pollMs = options.pollMs ?? 100;
  let queue: Promise<unknown> = Promise.resolve();

  async function printOnce(orderId: string, printerName: string | null): Promise<void> {
    if (printerName !== null) {
      const names = (await options.printers()).map((p) => p.name);
      if (!names.includes(printerName)) throw new Error(`The printer "${printerName}" is not installed on this computer; choose another in Settings.`);
    }
    const window = options.openWindow();
    try {
      await window.webContents.loadURL(options.receiptUrl(orderId));
      const lengthMm = await waitForReceipt(window, renderTimeoutMs, pollMs);
      const printOptions: WebContentsPrintOptions = {
        silent: true,
        printBackground: false,
        color: false,
        margins: { marginType: 'none' },
        // webContents.print takes a custom page size in microns (Electron docs, "contents.print").
        ...(lengthMm > 0 ? { pageSize: { width: RECEIPT_WIDTH_MM * 1000, height: Math.ceil(lengthMm * 1000) } } : { usePrinterDefaultPageSize: true }),
        ...(printerName !== null ? { deviceName: printerName } : {}),
      };
      await new Promise<void>((resolve, reject) => {
        window.webContents.print(printOptions, (success, failureReason) => {
          if (success) resolve();
          else reject(new Error(`The printer did not take the receipt (${failureReason || 'no reason given'}).`));
        });
      });
      options.logger.info('receipt printed', { orderId, printer: printerName ?? 'default' });
    } finally {
      if (!window.isDestroyed()) window.destroy();
    }
  }

  return {
    async list() {
      return (await options.printers()).map((p) => p.name);
    },
    print(orderId, printerName) {
      const job = queue.then(() => printOnce(orderId, printerName));
      queue = job.catch(() => undefined);
      return job;
    },
  };
}

/** Resolves to the receipt's length in millimetres (0: the page names none). */
async function waitForReceipt(window: ReceiptWindow, timeoutMs: number, pollMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await window.webContents.executeJavaScript(RECEIPT_READY_PROBE)) as unknown;
    if (typeof state === 'number' && Number.isFinite(state) && state >= 0) return Math.min(state, MAX_RECEIPT_MM);
    if (state === 'error') throw new Error('The receipt could not be made: the order is not known to this kiosk.');
    if (Date.now() >= deadline) throw new Error('The receipt did not finish rendering; try printing again.');
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
