import { signatureHeader } from '../../node-common/webhook-signature.ts';
import type { Clock } from '../clock.ts';
import { isoTimestamp } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import type { ApplicationRecord, DeliveryRecord, SandboxState } from '../state.ts';
import type { IpnTopic } from '../../shared/schemas/notification.ts';
import { WebhookTimestamp } from './webhook-ts.ts';
import { documentedTimestamp, SIMULATED_BODY_ORDER_ID, type ProfileSetting } from '../profile.ts';

export interface NotifierOptions {
  /** seed 6.1: the receiver must answer within 22 s. Real milliseconds, not sandbox time. */
  timeoutMs: number;
  fetch: typeof fetch;
  /** issue 27: seconds the signed `ts` runs ahead of the sandbox clock (sandbox/domain/webhook-ts.ts); default 0. */
  webhookTsAheadSeconds?: number;
}

const MINUTE = 60 * 1000;
const RETRY_BASE_MS = 15 * MINUTE; // seed 6.1: resent every 15 minutes
const RETRY_CAP_MS = 24 * 60 * MINUTE; // platform-facts decision: doubling after the third attempt, capped at 24 h
const GIVE_UP_AFTER_MS = 3 * 24 * 60 * MINUTE; // platform-facts decision: for 3 days

/** platform-facts decision: 15 min after attempts 1 and 2, then doubling (30 min, 1 h, …) capped at 24 h. */
export function retryDelayMs(failedAttempt: number): number {
  if (failedAttempt <= 2) return RETRY_BASE_MS;
  return Math.min(RETRY_BASE_MS * 2 ** (failedAttempt - 2), RETRY_CAP_MS);
}

/**
 * When to try again after failed attempt number `failedAttempt`, which started at `attemptStartedAt`; null means give up.
 * The schedule counts from when the attempt started, so a slow receiver (up to the 22 s timeout) does not shift it.
 * platform-facts decision "for 3 days": retries span three days from the first attempt; an attempt the doubling would
 * place past that is moved to the three-day mark, and a failure at that mark is the end.
 */
export function nextAttemptAt(firstAttemptAt: number, attemptStartedAt: number, failedAttempt: number): number | null {
  const deadline = firstAttemptAt + GIVE_UP_AFTER_MS;
  if (attemptStartedAt >= deadline) return null;
  return Math.min(attemptStartedAt + retryDelayMs(failedAttempt), deadline);
}

/** seed 6.1: per-object URLs must not point at local domains. */
export function isLocalUrl(url: string): boolean {
  try {
    // WHATWG URL parsing already folds 2130706433, 0x7f.1 and friends into dotted IPv4; a trailing dot is still a local name.
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
    if (host === 'localhost' || host.endsWith('.localhost') || host === '0.0.0.0') return true;
    if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true; // all of 127.0.0.0/8
    return host === '[::1]' || host === '[::]' || /^\[::ffff:(127\.|7f[0-9a-f]{2}:)/.test(host);
  } catch {
    return true;
  }
}

/**
 * Notifications as the platform sends them: webhooks (topic orders) to the application's configured URL, IPNs to the
 * account's IPN URL and to per-object notification_url, each retried on the sandbox clock until acknowledged with 200
 * or 201 (seed 6.1). Every attempt is recorded for GET /sandbox/deliveries.
 */
export class Notifier {
  readonly #inFlight = new Set<string>();
  /** issue 27: the `ts` the signatures carry (the control API's PUT /sandbox/webhook-ts changes it). */
  readonly webhookTs: WebhookTimestamp;

  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly profile: ProfileSetting,
    private readonly options: NotifierOptions,
  ) {
    this.webhookTs = new WebhookTimestamp(options.webhookTsAheadSeconds ?? 0);
  }

  /** platform-facts "Webhooks (topic orders)". */
  orderWebhook(app: ApplicationRecord, userId: string, action: string, data: Record<string, unknown> & { id: string }): void {
    if (!app.webhook_url) return;
    const documented = this.profile.documented;
    // issue 26, documented profile: the real platform sends no order.created (platform-facts "Webhooks": "there is no
    // order.created"); the seed profile keeps the project's decision to send it.
    if (documented && action === 'order.created') return;
    const body = this.#orderBody(app, userId, action, data);
    this.#enqueue('webhook', 'order', withQuery(app.webhook_url, { 'data.id': data.id, type: 'order' }), JSON.stringify(body), app, userId, data.id, documented ? { ts_ms: true } : {});
  }

  /**
   * issue 26: the dashboard's "Simulate notification" (platform-facts "Webhooks"): a signed webhook to the configured
   * URL for the Data ID the seller typed. The query's data.id (which the signature covers) is the typed id, and may be
   * joined by data.external_reference; the body's data.id is the dashboard's example id, not the typed one. Sent once,
   * never retried (the seller reads the answer on screen). Its ts follows the profile. Returns the delivery's id.
   */
  simulate(app: ApplicationRecord, userId: string, input: { data_id: string; external_reference?: string; action: string }): string {
    if (!app.webhook_url) throw new Error('the application has no webhook URL');
    const data: Record<string, unknown> & { id: string } = { id: SIMULATED_BODY_ORDER_ID };
    if (input.external_reference !== undefined) data.external_reference = input.external_reference;
    const body = this.#orderBody(app, userId, input.action, data);
    const query: Record<string, string> = { 'data.id': input.data_id, type: 'order' };
    if (input.external_reference !== undefined) query['data.external_reference'] = input.external_reference;
    return this.#enqueue('webhook', 'order', withQuery(app.webhook_url, query), JSON.stringify(body), app, userId, input.data_id, {
      one_shot: true,
      ...(this.profile.documented ? { ts_ms: true as const } : {}),
    });
  }

  /** The attempts of one delivery so far (for the simulate route's answer). */
  delivery(id: string): DeliveryRecord | undefined {
    return this.state.deliveries.get(id);
  }

  /**
   * platform-facts "Webhooks": an orders-topic body. issue 26, documented profile: user_id a JSON number (platform-facts
   * "Webhooks": a number in one official example, text in another; the seed profile sends text) and date_created of 0,
   * 2 or 9 fractional digits (sandbox/profile.ts).
   */
  #orderBody(app: ApplicationRecord, userId: string, action: string, data: Record<string, unknown>): Record<string, unknown> {
    const now = this.clock.now();
    const documented = this.profile.documented;
    return {
      action,
      api_version: 'v1',
      application_id: app.client_id,
      date_created: documented ? documentedTimestamp(now) : isoTimestamp(now),
      id: this.ids.digits(12),
      live_mode: false,
      type: 'order',
      user_id: documented && /^\d{1,15}$/.test(userId) ? Number(userId) : userId,
      data,
    };
  }

  /**
   * seed 6.1: an IPN for a legacy resource to the account-level URL, and to the object's own notification_url. On a
   * per-object URL, source_news=ipn asks for webhook-only delivery (seed 6.1, 2.); source_news=webhooks for IPN only.
   */
  resourceChanged(app: ApplicationRecord, userId: string, topic: IpnTopic, resourceId: string, action: string, notificationUrl?: string): void {
    if (app.ipn_url) this.#enqueueIpn(app, userId, app.ipn_url, topic, resourceId);
    if (!notificationUrl || !URL.canParse(notificationUrl)) return;
    const sourceNews = new URL(notificationUrl).searchParams.get('source_news');
    if (sourceNews !== 'ipn') this.#enqueueIpn(app, userId, notificationUrl, topic, resourceId);
    if (sourceNews !== 'webhooks') {
      const body = {
        action,
        api_version: 'v1',
        data: { id: resourceId },
        date_created: isoTimestamp(this.clock.now()),
        id: this.ids.digits(12),
        live_mode: false,
        type: topic,
        user_id: userId,
      };
      this.#enqueue('webhook', topic, withQuery(notificationUrl, { 'data.id': resourceId, type: topic }), JSON.stringify(body), app, userId, resourceId);
    }
  }

  /** Sends every delivery whose time has come on the sandbox clock; resolves when those attempts have ended. */
  async deliverDue(): Promise<void> {
    const now = this.clock.now();
    const due: DeliveryRecord[] = [];
    for (const id of this.state.pendingDeliveries) {
      const d = this.state.deliveries.get(id);
      if (d && d.state === 'pending' && d.next_attempt_at !== null && d.next_attempt_at <= now && !this.#inFlight.has(d.id)) due.push(d);
    }
    await Promise.all(due.map((d) => this.#attempt(d)));
  }

  /** The attempts in flight, so a shutdown or a test can wait for them. */
  get busy(): boolean {
    return this.#inFlight.size > 0;
  }

  #enqueueIpn(app: ApplicationRecord, userId: string, url: string, topic: IpnTopic, resourceId: string): void {
    // platform-facts "IPN": POST <url>?topic=<topic>&id=<id>, no useful body.
    this.#enqueue('ipn', topic, withQuery(url, { topic, id: resourceId }), JSON.stringify({ resource: resourceId, topic }), app, userId, resourceId);
  }

  #enqueue(
    kind: DeliveryRecord['kind'],
    topic: string,
    url: string,
    body: string,
    app: ApplicationRecord,
    userId: string,
    dataId: string,
    flags: Pick<DeliveryRecord, 'ts_ms' | 'one_shot'> = {},
  ): string {
    const now = this.clock.now();
    const id = this.ids.hex(16);
    this.state.deliveries.put(id, {
      ...flags,
      id,
      request_id: this.ids.uuid(),
      kind,
      topic,
      url,
      body,
      client_id: app.client_id,
      user_id: userId,
      data_id: dataId,
      state: 'pending',
      attempts: [],
      first_attempt_at: now,
      next_attempt_at: now,
      created_at: now,
    });
    this.state.pendingDeliveries.add(id);
    return id;
  }

  async #attempt(delivery: DeliveryRecord): Promise<void> {
    this.#inFlight.add(delivery.id);
    const startedAt = this.clock.now();
    const headers = this.#headers(delivery, startedAt);
    let status: number | undefined;
    let error: string | undefined;
    try {
      const response = await this.options.fetch(delivery.url, {
        method: 'POST',
        headers,
        body: delivery.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'manual',
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      error = err.name === 'TimeoutError' ? `timeout: no answer within ${this.options.timeoutMs} ms` : (err.cause?.code ?? err.message);
    } finally {
      this.#inFlight.delete(delivery.id);
    }
    const attempt = delivery.attempts.length + 1;
    delivery.attempts.push({ attempt, at: startedAt, headers, ...(status !== undefined ? { status } : {}), ...(error ? { error } : {}) });
    // seed 6.1: acknowledged means HTTP 200 or 201.
    if (status === 200 || status === 201) {
      delivery.state = 'delivered';
      delivery.next_attempt_at = null;
    } else {
      const next = delivery.one_shot ? null : nextAttemptAt(delivery.first_attempt_at, startedAt, attempt);
      if (next === null) {
        delivery.state = 'gave_up';
        delivery.next_attempt_at = null;
      } else {
        delivery.next_attempt_at = next;
      }
    }
    this.state.deliveries.put(delivery.id, delivery);
    if (delivery.state !== 'pending') this.state.pendingDeliveries.delete(delivery.id);
  }

  #headers(delivery: DeliveryRecord, now: number): Record<string, string> {
    // issue 26, documented profile: the Orders notification pages sign with a 13-digit millisecond ts (platform-facts
    // "Webhooks"; https://www.mercadopago.com.uy/developers/en/docs/qr-code/notifications); the seed's is in seconds.
    // issue 27: either unit runs ahead by the configured skew (sandbox/domain/webhook-ts.ts).
    const ts = delivery.ts_ms ? this.webhookTs.tsMsFor(now) : this.webhookTs.tsFor(now);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'PlatformSandbox-Notifications/1.0',
      'x-request-id': delivery.request_id,
    };
    const app = this.state.applications.get(delivery.client_id);
    if (delivery.kind === 'webhook' && app?.webhook_secret) {
      headers['x-signature'] = signatureHeader(app.webhook_secret, delivery.data_id, delivery.request_id, ts);
    } else if (delivery.kind === 'ipn') {
      // seed 6.1: IPN carries an x-signature that cannot be used to verify the sender.
      headers['x-signature'] = `ts=${ts},v1=${this.ids.hex(64)}`;
    }
    return headers;
  }
}

function withQuery(url: string, params: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
