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

/**
 * Codes that mean "no answer": the core's `offline` (PlatformNetworkError), the platform's 5xx and 429 codes
 * (seed 7.3 `generic`, platform-facts `local_rate_limited`, bodies without JSON → `http_<status>`), and the web shell's
 * own `shell_unreachable` (the kiosk service did not answer the renderer).
 */
const NO_ANSWER = new Set(['offline', 'network_error', 'generic', 'internal_error', 'internal_server_error', 'service_unavailable', 'bad_gateway', 'local_rate_limited', 'shell_unreachable']);

export function classifyChargeError(error: KioskError, sessionState: string | null): ChargeProblemKind {
  if (error.code === 'reconnect_needed' || (error.code === 'not_connected' && sessionState === 'reconnect_needed')) return 'reconnect_needed';
  if (error.code === 'not_connected' || error.code === 'unauthorized') return 'not_connected';
  if (NO_ANSWER.has(error.code) || /^http_(429|5\d\d)$/.test(error.code)) return 'unreachable';
  return 'refused';
}
