import { verifySignature, type SignatureFailure } from './signature.ts';
import type { KioskScope } from './kiosk-keys.ts';

/**
 * One application of the platform, as the relay knows it (issue 12). The platform signs every webhook of an application
 * with that application's secret (the sandbox: `application.webhook_secret`), and an OAuth integrator's application
 * serves many sellers. A secret therefore proves "application X sent this" and nothing more: the relay accepts an event
 * only for a seller listed under the application whose secret verified it, so no secret speaks for another
 * application's sellers.
 */
export interface WebhookApplication {
  /** The application's client id (the body's unsigned `application_id` must agree when it is given). */
  id: string;
  /** One or more secrets; any may match (rotation). */
  secrets: readonly string[];
  /** The user ids of the sellers this application serves. */
  sellers: readonly string[];
}

/** The id given to the application made from `webhookSecrets` alone (README "Trust model"). */
export const LEGACY_APPLICATION_ID = 'legacy';

export const APPLICATION_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const SELLER_ID = /^\d{1,20}$/;
/** platform-facts "Webhooks": the dashboard's secrets are long random strings; a short one is a typo or a guessable one. */
export const MIN_SECRET_LENGTH = 16;

/**
 * The applications the relay serves: the configured ones, plus the legacy one when `webhookSecrets` is given, whose
 * sellers are the sellers of the kiosk keys (the single-store setup of issue 3, where one secret served the store).
 * Throws with one clear sentence (never quoting a secret) when two applications share an id or a secret, or one has no
 * secret or no seller: a secret shared by two applications could speak for both.
 */
export function resolveApplications(configured: readonly WebhookApplication[], legacySecrets: readonly string[], kioskKeys: readonly KioskScope[]): WebhookApplication[] {
  const applications = [...configured];
  if (legacySecrets.length > 0) {
    applications.push({ id: LEGACY_APPLICATION_ID, secrets: legacySecrets, sellers: [...new Set(kioskKeys.map((k) => k.userId))] });
  }
  if (applications.length === 0) throw new Error('at least one webhook secret or application is required');
  const ids = new Set<string>();
  const secrets = new Set<string>();
  for (const application of applications) {
    if (!APPLICATION_ID.test(application.id)) throw new Error(`application ${application.id.slice(0, 64)}: the id must be 1 to 64 letters, digits, _ or -`);
    if (ids.has(application.id)) throw new Error(`application ${application.id} is given twice`);
    ids.add(application.id);
    if (application.secrets.length === 0) throw new Error(`application ${application.id} needs at least one secret`);
    for (const secret of application.secrets) {
      if (secret.length < MIN_SECRET_LENGTH) throw new Error(`application ${application.id}: a webhook secret must be at least ${MIN_SECRET_LENGTH} characters`);
      if (secrets.has(secret)) throw new Error(`application ${application.id}: a webhook secret is given twice (one secret belongs to one application)`);
      secrets.add(secret);
    }
    // The legacy application may have no seller yet (no kiosk key): it then accepts nothing, which is what it can route.
    if (application.id !== LEGACY_APPLICATION_ID && application.sellers.length === 0) throw new Error(`application ${application.id} needs at least one seller`);
    const bad = application.sellers.find((s) => !SELLER_ID.test(s));
    if (bad !== undefined) throw new Error(`application ${application.id}: seller ${bad.slice(0, 24)} is not a numeric user id`);
  }
  return applications;
}

export interface SignedRequest {
  header: string | undefined;
  requestId: string | undefined;
  dataId: string | undefined;
  nowMs: number;
  toleranceSeconds: number;
}

/**
 * The application whose secret signed the request, or why none did. A header that is missing, malformed or stale fails
 * the same way whatever the secret, so its reason comes from the first application; only "no secret matched" needs them all.
 */
export function signingApplication(applications: readonly WebhookApplication[], request: SignedRequest): { ok: true; application: WebhookApplication; tsMs: number } | { ok: false; reason: SignatureFailure } {
  for (const application of applications) {
    const check = verifySignature({ ...request, secrets: application.secrets });
    if (check.ok) return { ok: true, application, tsMs: check.tsMs };
    if (check.reason !== 'bad_signature') return check;
  }
  return { ok: false, reason: 'bad_signature' };
}
