/**
 * Whether `a` and `b` hold the same value (===) in each of `keys`: the change checks that compare a record field by
 * field (the kiosk's connectivity, which must not announce a change that is none; the sandbox's cached QR template).
 */
export function sameFields<T extends object>(a: T, b: T, keys: readonly (keyof T)[]): boolean {
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
