import type { KioskError, KioskInput } from '../../../../shared/kiosk-api.ts';

/**
 * Why a charge could not be made, sorted by what the cashier can do about it (issue 5 "Offline"):
 * - `not_connected` / `reconnect_needed`: no account; a manager connects it in Settings.
 * - `unreachable`: the platform did not answer (network error, 429, 5xx): perhaps it never got the request, perhaps
 *   the answer was lost. "Try again" sends the very same input again (see Sale.svelte) — never a changed one.
 * - `refused`: the platform or the kiosk said no for a reason of its own (shown in words, i18n.error).
 */
export type ChargeProblemKind = 'not_connected' | 'reconnect_needed' | 'unreachable' | 'refused';

export interface ChargeProblem {
  kind: ChargeProblemKind;
  error: KioskError;
  /** The exact input that failed: what "try again" sends. */
  input: KioskInput<'createOrder'>;
}

export function classifyChargeError(error: KioskError, sessionState: string | null): ChargeProblemKind {
  if (error.code === 'reconnect_needed' || (error.code === 'not_connected' && sessionState === 'reconnect_needed')) return 'reconnect_needed';
  if (error.code === 'not_connected' || error.code === 'unauthorized') return 'not_connected';
  // The core says whether the very same call can succeed later (no answer, 429, 5xx; shared/kiosk-errors.ts, issue 13).
  if (error.retryable) return 'unreachable';
  return 'refused';
}
