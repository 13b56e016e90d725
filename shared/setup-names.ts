// The setup contract's pure helpers with no zod (like ./kiosk-names.ts): the renderer's setup assistant makes a POS
// external id valid as it is typed, and importing ./setup-api.ts for it would put the whole validator in the counter
// display's bundle (issue 5; test/unit/renderer/bundle-budget.test.ts). ./setup-api.ts re-exports these.

/** platform-facts: a POS external_id is letters and digits only, under 40 characters. */
export const POS_EXTERNAL_ID_MAX = 39;

/**
 * A POS external id made valid (platform-facts: letters and digits only, under 40): everything else dropped, accents
 * taken off their letters ("Caja Ñandú 1" → "CajaNandu1"). Empty when nothing is left: then propose one instead.
 */
export function validPosExternalId(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, POS_EXTERNAL_ID_MAX);
}
