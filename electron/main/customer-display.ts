import type { Display } from 'electron';

/**
 * The display the customer view goes on (issue 5 "Customer view", issue 6 "With a second display"): the first one
 * that is not the primary display, where the cashier's window is. None with a single display.
 */
export function pickCustomerDisplay(displays: readonly Pick<Display, 'id' | 'bounds'>[], primaryId: number): Pick<Display, 'id' | 'bounds'> | null {
  return displays.find((display) => display.id !== primaryId) ?? null;
}
