import { z } from 'zod';

/** seed 2.5: "decimal strings with two decimal places or none". Currency-specific rules live in money.ts. */
export const decimalString = z.string().regex(/^(0|[1-9][0-9]*)(\.[0-9]{2})?$/, 'must be a decimal string with two decimals or none');

/** seed 2.5 / platform-facts: yyyy-MM-ddTHH:mm:ss.sssZ, always UTC with milliseconds. */
export const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'must be yyyy-MM-ddTHH:mm:ss.sssZ');

/** seed 2.5 / 7.4: ORD followed by 26 alphanumerics. */
export const ORDER_ID_PATTERN = /^ORD[A-Za-z0-9]{26}$/;
export const orderId = z.string().regex(ORDER_ID_PATTERN, 'must be ORD followed by 26 alphanumeric characters');

export const COUNTRY_CURRENCY = { AR: 'ARS', BR: 'BRL', CL: 'CLP', UY: 'UYU' } as const;
export type SupportedCountry = keyof typeof COUNTRY_CURRENCY;
export function isSupportedCountry(code: string): code is SupportedCountry {
  return Object.hasOwn(COUNTRY_CURRENCY, code);
}
export const currency = z.enum(['ARS', 'BRL', 'CLP', 'UYU']);
