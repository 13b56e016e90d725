import { z } from 'zod';
import { DECIMAL_STRING } from '../money.ts';

/** seed 2.5: "decimal strings with two decimal places or none". Currency-specific rules live in money.ts. */
export const decimalString = z.string().regex(DECIMAL_STRING, 'must be a decimal string with two decimals or none');

/** seed 2.5 / platform-facts: yyyy-MM-ddTHH:mm:ss.sssZ, always UTC with milliseconds. */
export const timestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'must be yyyy-MM-ddTHH:mm:ss.sssZ');

import { ORDER_ID_PATTERN } from '../kiosk-names.ts';

export { COUNTRY_CURRENCY, ORDER_ID_PATTERN, isSupportedCountry } from '../kiosk-names.ts';
export const orderId = z.string().regex(ORDER_ID_PATTERN, 'must be ORD or ORDTST followed by 26 alphanumeric characters');

export const currency = z.enum(['ARS', 'BRL', 'CLP', 'UYU']);

/** The manager PIN as every KioskApi method takes it (issue 12): 4 to 8 digits. */
export const managerPin = z.string().regex(/^\d{4,8}$/, 'a PIN is 4 to 8 digits');
/** Text a person typed for a name or a label: trimmed, 1 to `max` characters, no control characters. */
export const printableText = (max: number) => z.string().trim().min(1).max(max).regex(/^[^\p{Cc}]*$/u, 'no control characters');
