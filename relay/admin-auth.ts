import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthLimiter } from './auth-limiter.ts';
import type { RelayMetrics } from './metrics.ts';

// issue 28: the one check of an operator's credential. /fleet and /fleet.html, /metrics (on the main port and on a
// listener of its own) and /notifications/health each wrote it out once; they now describe what they take and what
// they answer, and this module decides, counts and limits (issue 27: one per-source limit shared by all of them).

/** A refusal as the route answers it: status, JSON body and any extra header. */
export interface Refusal {
  status: number;
  body: { error: string; message: string };
  headers?: Record<string, string>;
}

export type Admission = { ok: true } | { ok: false; refusal: Refusal };

/** What a route takes and how it says no. */
export interface CredentialRule {
  /** Bearer credentials this route takes besides the admin key (the metrics token). */
  tokens?: ReadonlyArray<string | undefined>;
  /** Also `Authorization: Basic` with the admin key as password, any user name (the fleet page: a browser asks for it). */
  basic?: boolean;
  /** Admits without a credential (`--metrics-open`): nothing to guess, so nothing is counted or limited. */
  open?: boolean;
  /**
   * The answer to a kiosk key, a known credential of the wrong kind: not counted as a guess. Without it a kiosk key is
   * a wrong key like any other (the /metrics rule of issue 27).
   */
  kioskKey?: Refusal;
  /** The answer when the relay holds no credential this route takes (nothing to guess: not counted). */
  closed: Refusal;
  /** The answer to a wrong credential, or none. */
  unauthorized: Refusal;
}

export interface AdminGateOptions {
  adminKey: string | undefined;
  limiter: AuthLimiter;
  metrics: RelayMetrics;
  /** Whether a bearer header carries one of the kiosk keys configured now. */
  isKioskKey: (header: string | undefined) => boolean;
}

/** Constant-time check of `Authorization: Bearer <token>` (hashing first makes the lengths equal). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ? sameSecret(match[1], token) : false;
}

/** `Authorization: Basic base64(user:password)`: any user name, the password compared in constant time. */
export function basicMatches(header: string | undefined, password: string): boolean {
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && sameSecret(decoded.slice(colon + 1), password);
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The admin-key check every operator route uses. Order (issue 27): a source over its limit waits whatever it sends
 * (429 with Retry-After, the right key included, or guessing would simply go on); then a credential the route takes
 * admits; a kiosk key gets the route's kiosk answer; a relay holding no credential for the route answers `closed`; any
 * other credential counts against its source (`relay_admin_auth_refused_total{reason="wrong_key"}`), while a request
 * with no credential at all (a browser's first request, before it asks for the key) does not.
 */
export class AdminGate {
  constructor(private readonly options: AdminGateOptions) {}

  /** `source`: the request's address (the limiter's key); `header`: its Authorization header. */
  check(source: string, header: string | undefined, rule: CredentialRule): Admission {
    if (rule.open === true) return { ok: true };
    const { limiter, metrics, adminKey } = this.options;
    const wait = limiter.retryAfterSeconds(source);
    if (wait !== null) {
      metrics.inc('relay_admin_auth_refused_total', { reason: 'rate_limited' });
      return refuse({
        status: 429,
        body: { error: 'too_many_attempts', message: `Too many failed admin-key attempts from this address; retry in ${wait} s.` },
        headers: { 'retry-after': String(wait) },
      });
    }
    const credentials = [adminKey, ...(rule.tokens ?? [])].filter((c): c is string => c !== undefined);
    // Every credential is compared, so the time taken does not say which one came close.
    const matches = credentials.map((c) => bearerMatches(header, c));
    if (matches.includes(true) || (rule.basic === true && adminKey !== undefined && basicMatches(header, adminKey))) return { ok: true };
    if (rule.kioskKey !== undefined && this.options.isKioskKey(header)) return refuse(rule.kioskKey);
    if (credentials.length === 0) return refuse(rule.closed);
    if (header !== undefined) {
      limiter.fail(source);
      metrics.inc('relay_admin_auth_refused_total', { reason: 'wrong_key' });
    }
    return refuse(rule.unauthorized);
  }
}

function refuse(refusal: Refusal): Admission {
  return { ok: false, refusal };
}
