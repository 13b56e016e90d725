/** A kiosk key and what it may see: one seller, and optionally only some of its points of sale (issue 3). */
export interface KioskScope {
  key: string;
  userId: string;
  posIds: readonly string[] | null;
}

/** Parses KEY=USER_ID[:POS1,POS2...]. Keys must be long enough not to be guessed. */
export function parseKioskKey(text: string): { ok: true; scope: KioskScope } | { ok: false; error: string } {
  const eq = text.indexOf('=');
  if (eq <= 0) return { ok: false, error: `kiosk key "${redact(text)}" must look like KEY=USER_ID[:POS1,POS2]` };
  const key = text.slice(0, eq);
  const rest = text.slice(eq + 1);
  if (key.length < 16 || !/^[A-Za-z0-9._~-]+$/.test(key)) {
    return { ok: false, error: `kiosk key ${redact(key)} must be at least 16 characters of letters, digits, . _ ~ -` };
  }
  const colon = rest.indexOf(':');
  const userId = colon === -1 ? rest : rest.slice(0, colon);
  if (!/^\d{1,20}$/.test(userId)) return { ok: false, error: `kiosk key ${redact(key)}: USER_ID must be the seller's numeric user id` };
  let posIds: string[] | null = null;
  if (colon !== -1) {
    posIds = rest.slice(colon + 1).split(',').map((p) => p.trim());
    if (posIds.length === 0 || posIds.some((p) => p === '' || p.length > 128)) {
      return { ok: false, error: `kiosk key ${redact(key)}: POS ids must be a comma-separated list of non-empty ids` };
    }
  }
  return { ok: true, scope: { key, userId, posIds } };
}

/** Never print a whole key: the first four characters are enough to tell which one is meant. */
export function redact(key: string): string {
  return key.length <= 4 ? '****' : `${key.slice(0, 4)}…`;
}

export function canSee(scope: KioskScope, event: { userId: string; posId: string | null; type: string }): boolean {
  if (event.userId !== scope.userId) return false;
  if (scope.posIds === null) return true;
  // issue 26: platform-facts "Webhooks": the real platform's order notifications carry no config.qr.external_pos_id
  // (only the sandbox adds it), so an order event without a POS goes to every kiosk of its seller: each one GETs the
  // order and ignores an order that is not its own (a wake-up is never a fact, README "Trust model").
  if (event.posId === null) return event.type.startsWith('order.');
  // A POS-scoped key sees only events that name one of its POS; any other event with no POS (a legacy IPN, another
  // topic's webhook) is not its own.
  return scope.posIds.includes(event.posId);
}
