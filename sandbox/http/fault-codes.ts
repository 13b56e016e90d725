import { OAUTH_ERRORS, ORDER_ERRORS, TOKENIZE_ERRORS } from '../../shared/errors.ts';
import { DOCUMENTED_REFUND_ERRORS } from '../profile.ts';

/**
 * issue 26: the codes a fault may force (POST /sandbox/faults {"code"}), with the status and message each is answered
 * with: the documented refund codes (sandbox/profile.ts), then the seed's tables (shared/errors.ts). Undefined for a
 * code no table names, which the control API refuses, so a typo is not injected as a silent 500.
 */
export function faultErrorSpec(code: string): { status: number; message: string } | undefined {
  for (const table of [DOCUMENTED_REFUND_ERRORS, ORDER_ERRORS, TOKENIZE_ERRORS, OAUTH_ERRORS] as const) {
    if (Object.hasOwn(table, code)) return (table as Record<string, { status: number; message: string }>)[code];
  }
  return undefined;
}
