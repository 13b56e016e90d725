import type { KioskOrder } from '../../../../shared/kiosk-api.ts';

/**
 * What the Sale screen gives an outcome view that offers an action besides New sale (issue 15 "Outcomes full screen"):
 * EndedView's "charge again", UnconfirmedView's "check status" (issue 26). `busy` while that action runs, `error` its
 * failure in words (shown in the view's error slot).
 */
export interface OutcomeProps {
  order: KioskOrder;
  busy: boolean;
  error: string | null;
  onNewSale: () => void;
}
