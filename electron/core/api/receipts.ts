import { ok, orderNotFound } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

/** Receipts (issue 6): silent printing through the shell's printer; without one, printReceipt answers printed: false. */
export function receiptsApi(deps: Pick<CoreServices, 'guards' | 'ordersRepo' | 'printer' | 'settings' | 'logger'>): Pick<KioskApi, 'printReceipt' | 'listPrinters'> {
  const { guarded } = deps.guards;
  const { ordersRepo, printer, logger } = deps;
  return {
    printReceipt: guarded('printReceipt', {}, async (input) => {
      if (!ordersRepo.load(input.id)) return orderNotFound(input.id);
      if (!printer) return ok({ printed: false });
      try {
        await printer.print(input.id, deps.settings().printerName);
      } catch (error) {
        const reason = error instanceof Error && error.message ? error.message.replace(/\s+/g, ' ').slice(0, 200) : 'no reason given';
        logger.warn('receipt printing failed', { order: input.id, reason });
        return { ok: false, error: kioskError('print_failed', `The receipt could not be printed (${reason}); check the printer, or print from the dialog.`) };
      }
      return ok({ printed: true });
    }),
    listPrinters: guarded('listPrinters', {}, async () => {
      try {
        return ok((await printer?.list()) ?? []);
      } catch {
        return { ok: false, error: kioskError('printers_unavailable') };
      }
    }),
  };
}
