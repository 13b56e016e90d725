import { tick } from 'svelte';
import type { KioskOrder } from '../../../shared/kiosk-api.ts';
import type { KioskState } from './kiosk.svelte.ts';

/**
 * Receipt printing (issue 6 "Receipts"). The shell prints silently when it can (Electron, to the configured printer);
 * otherwise the receipt is put in the page's print area (App.svelte) and the browser's print dialog opens.
 * Stable API for the screens: `printReceipt(kiosk, order)`; `receiptToPrint.order` is what the print area shows.
 */
export const receiptToPrint = $state<{ order: KioskOrder | null }>({ order: null });

export async function printReceipt(kiosk: KioskState, order: KioskOrder): Promise<{ ok: true } | { ok: false; error: { code: string; message: string } }> {
  const response = await kiosk.bridge.api.printReceipt({ id: order.id });
  if (!response.ok) return { ok: false, error: response.error };
  if (response.value.printed) return { ok: true };
  receiptToPrint.order = order;
  await tick();
  window.print();
  receiptToPrint.order = null;
  return { ok: true };
}
