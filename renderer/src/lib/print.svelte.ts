import { tick, type Snippet } from 'svelte';
import type { KioskOrder } from '../../../shared/kiosk-api.ts';
import type { KioskState } from './kiosk.svelte.ts';

/**
 * Receipt printing (issue 6 "Receipts"). The shell prints silently when it can (Electron, to the configured printer);
 * otherwise the receipt is put in the page's print area (App.svelte) and the browser's print dialog opens.
 * Stable API for the screens: `printReceipt(kiosk, order)`; `receiptToPrint.order` is what the print area shows.
 */
export const receiptToPrint = $state<{ order: KioskOrder | null; other: Snippet | null }>({ order: null, other: null });

/**
 * issue 29: another receipt (a cash sale's, components/till/CashReceipt.svelte) printed through the print dialog: the
 * shell's silent printing knows orders by their id only. `selector` finds the receipt in the print area to fit the page.
 */
export async function printOther(receipt: Snippet, selector: string): Promise<void> {
  receiptToPrint.other = receipt;
  try {
    await tick();
    fitPageToReceipt(document.querySelector<HTMLElement>(`[data-print-area] ${selector}`));
    window.print();
  } finally {
    receiptToPrint.other = null;
  }
}

/** `via`: 'printer' — the shell printed silently; 'dialog' — the print dialog was shown (the person chose there). */
export type PrintOutcome = { ok: true; via: 'printer' | 'dialog' } | { ok: false; error: { code: string; message: string } };

/** The selector of the receipt inside App.svelte's print area. */
export const PRINT_AREA_RECEIPT = '[data-print-area] [data-testid="receipt"]';

export async function printReceipt(kiosk: KioskState, order: KioskOrder): Promise<PrintOutcome> {
  const response = await kiosk.bridge.api.printReceipt({ id: order.id });
  if (!response.ok) return { ok: false, error: response.error };
  if (response.value.printed) return { ok: true, via: 'printer' };
  // The print dialog: the order's newest state (a refund since the screen loaded belongs on a reprint) and the store's
  // name as set now.
  const [fresh, settings] = await Promise.all([kiosk.bridge.api.getOrder({ id: order.id }), kiosk.bridge.api.getSettings({})]);
  if (settings.ok) kiosk.settings = settings.value;
  receiptToPrint.order = fresh.ok ? fresh.value : order;
  try {
    await tick();
    fitPageToReceipt(document.querySelector<HTMLElement>(PRINT_AREA_RECEIPT));
    window.print();
  } finally {
    receiptToPrint.order = null;
  }
  return { ok: true, via: 'dialog' };
}

/**
 * The page-size rule lives in a constructed stylesheet, adopted by the document: the CSP's style-src has no
 * 'unsafe-inline' (issue 12), which refuses a <style> element's text but not the CSSOM. Readers (the shell's receipt
 * probe, electron/main/receipt-printer.ts) find it among document.adoptedStyleSheets.
 */
let pageSize: CSSStyleSheet | null = null;

/**
 * issue 6: 80 mm paper. The page is made as long as the receipt (plus a little feed), so a roll printer prints one
 * page and does not feed an A4 length of blank paper. Without a receipt element the page stays 80 mm wide.
 */
export function fitPageToReceipt(element: HTMLElement | null): void {
  const heightMm = element ? Math.ceil((element.getBoundingClientRect().height * 25.4) / 96) + 8 : 200;
  if (!pageSize) {
    pageSize = new CSSStyleSheet();
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, pageSize];
  }
  pageSize.replaceSync(`@page { size: 80mm ${heightMm}mm; margin: 0; }`);
}
