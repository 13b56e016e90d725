import { timingSafeEqual } from 'node:crypto';
import { sign } from '../node-common/webhook-signature.ts';

export type SignatureFailure = 'missing_signature' | 'malformed_signature' | 'stale_timestamp' | 'bad_signature' | 'missing_request_id';

export interface SignatureInput {
  /** The x-signature header: ts=<unix seconds or milliseconds>,v1=<hex>. */
  header: string | undefined;
  requestId: string | undefined;
  /** data.id exactly as it appeared in the query string. */
  dataId: string | undefined;
  secrets: readonly string[];
  nowMs: number;
  toleranceSeconds: number;
}

/**
 * platform-facts "Webhooks": v1 = HMAC-SHA256(secret, "id:<data.id>;request-id:<x-request-id>;ts:<ts>;"), a part whose
 * value is absent is left out (signed by the one definition, node-common/webhook-signature.ts). The id is accepted as
 * given or lowercased (the real platform's casing is inconsistent), any configured secret may match (rotation),
 * comparisons are constant-time, and ts must be within the tolerance of our clock so a captured notification cannot be
 * replayed later (style guide 14).
 *
 * platform-facts "Webhooks": the Orders and Point notification pages and the official SDK's test vector send `ts` in
 * milliseconds (13 digits, `ts=1742505638683`); older generic pages show seconds (10 digits). Both are accepted, each
 * read in its own unit for the freshness check, while the manifest uses `ts` exactly as sent. Any other length is not a
 * time of this era in either unit (11 or 12 digits would be years 2286 to 33658 in seconds, or 1973 to 2001 in
 * milliseconds) and stays malformed_signature.
 */
export function verifySignature(input: SignatureInput): { ok: true; tsMs: number } | { ok: false; reason: SignatureFailure } {
  if (!input.header) return { ok: false, reason: 'missing_signature' };
  if (!input.requestId) return { ok: false, reason: 'missing_request_id' };
  let ts: string | undefined;
  const hashes: string[] = [];
  for (const part of input.header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const key = part.slice(0, eq).trim().toLowerCase();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') ts = value;
    else if (key === 'v1' && value) hashes.push(value.toLowerCase());
  }
  const tsMs = ts === undefined ? null : timestampMs(ts);
  if (ts === undefined || tsMs === null || hashes.length === 0 || hashes.some((h) => !/^[0-9a-f]{64}$/.test(h))) {
    return { ok: false, reason: 'malformed_signature' };
  }
  if (Math.abs(input.nowMs - tsMs) > input.toleranceSeconds * 1000) return { ok: false, reason: 'stale_timestamp' };
  const ids = input.dataId === undefined ? [undefined] : [...new Set([input.dataId, input.dataId.toLowerCase()])];
  for (const secret of input.secrets) {
    for (const id of ids) {
      const expected = Buffer.from(sign(secret, id, input.requestId, ts), 'hex');
      for (const hash of hashes) {
        const given = Buffer.from(hash, 'hex');
        if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, tsMs };
      }
    }
  }
  return { ok: false, reason: 'bad_signature' };
}

/** A signature's `ts` as milliseconds: 10 digits are seconds, 13 digits milliseconds; anything else is null. */
export function timestampMs(ts: string): number | null {
  if (/^\d{10}$/.test(ts)) return Number(ts) * 1000;
  if (/^\d{13}$/.test(ts)) return Number(ts);
  return null;
}
