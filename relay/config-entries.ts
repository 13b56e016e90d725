import { redact } from './kiosk-keys.ts';
import { APPLICATION_ID, SELLER_ID } from './applications.ts';
import { tokenOwner } from './order-confirmation.ts';

// The list settings of relay/config.ts as entries (flags and RELAY_* variables give them as text): applications and
// seller tokens, each checked and named without repeating a secret.

type Problem = { ok: false; error: string };

/**
 * ID=SECRET[,SECRET2]:SELLER1[,SELLER2] entries. The sellers follow the last colon (user ids have none); a problem
 * names the application id or the entry's position, never a secret.
 */
export function parseApplications(texts: readonly string[], setting: string): { ok: true; applications: Array<{ id: string; secrets: string[]; sellers: string[] }> } | Problem {
  const applications: Array<{ id: string; secrets: string[]; sellers: string[] }> = [];
  for (const [index, text] of texts.entries()) {
    const eq = text.indexOf('=');
    const colon = text.lastIndexOf(':');
    if (eq <= 0 || colon < eq) return { ok: false, error: `${setting} entry ${index + 1} must look like ID=SECRET[,SECRET2]:SELLER1[,SELLER2]` };
    const id = text.slice(0, eq);
    if (!APPLICATION_ID.test(id)) return { ok: false, error: `${setting} entry ${index + 1}: the application id ${redact(id)} must be 1 to 64 letters, digits, _ or -` };
    const secrets = text.slice(eq + 1, colon).split(',');
    const sellers = text.slice(colon + 1).split(',');
    if (secrets.some((s) => s === '')) return { ok: false, error: `${setting} ${id}: secrets must be a comma-separated list of non-empty secrets` };
    if (sellers.some((s) => !SELLER_ID.test(s))) return { ok: false, error: `${setting} ${id}: sellers must be a comma-separated list of numeric user ids` };
    applications.push({ id, secrets, sellers });
  }
  return { ok: true, applications };
}

/** USER_ID=TOKEN entries. */
export function parseSellerTokens(texts: readonly string[], setting: string): { ok: true; tokens: Record<string, string> } | Problem {
  const tokens: Record<string, string> = {};
  for (const [index, text] of texts.entries()) {
    const eq = text.indexOf('=');
    const userId = eq > 0 ? text.slice(0, eq) : '';
    if (!SELLER_ID.test(userId) || eq === text.length - 1) return { ok: false, error: `${setting} entry ${index + 1} must look like USER_ID=TOKEN with a numeric user id` };
    if (Object.hasOwn(tokens, userId)) return { ok: false, error: `${setting}: two tokens for seller ${userId}` };
    tokens[userId] = text.slice(eq + 1);
  }
  return { ok: true, tokens };
}

/** A token names its seller (platform-facts: it ends with -<user_id>): one filed under another seller is a mistake. */
export function checkSellerTokens(tokens: Record<string, string>): string | null {
  for (const [userId, token] of Object.entries(tokens)) {
    if (!SELLER_ID.test(userId)) return `seller token: ${userId.slice(0, 24)} is not a numeric user id`;
    if (token === '' || /\s/.test(token)) return `the token of seller ${userId} must be non-empty, without spaces`;
    const owner = tokenOwner(token);
    if (owner !== null && owner !== userId) return `the token given for seller ${userId} belongs to another seller (it ends with another user id)`;
  }
  return null;
}
