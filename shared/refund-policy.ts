// What the platform allows of a refund by the seller's country, for the core's refund rules and the refund dialog alike.

/**
 * platform-facts "Order states as the real platform documents them" and "Error bodies": partial refunds exist for
 * Argentina, Uruguay and Chile sellers only; the platform answers a Brazilian seller's partial refund 400
 * `unsupported_partially_refunds`. An unknown country is left to the platform (the kiosk is never stricter than it).
 */
export function partialRefundsAllowed(countryCode: string | null | undefined): boolean {
  return countryCode !== 'BR';
}
