import { createHmac } from 'node:crypto';

// The platform's webhook signature, defined once (issue 13): the sandbox signs its notifications with it, the relay
// verifies against it (relay/signature.ts), and tests sign payloads with it (style guide 14: a helper signs test
// payloads). Node-only because of node:crypto, so it lives here and not in shared/.

/**
 * platform-facts "Webhooks": the signed manifest "id:<data.id>;request-id:<x-request-id>;ts:<ts>;", a part whose value
 * is absent left out.
 */
export function manifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  return `${dataId !== undefined && dataId !== '' ? `id:${dataId};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

/** platform-facts "Webhooks": v1 = HMAC-SHA256(secret, manifest), in lower-case hex. */
export function sign(secret: string, dataId: string | undefined, requestId: string | undefined, ts: string): string {
  return createHmac('sha256', secret).update(manifest(dataId, requestId, ts)).digest('hex');
}

/** The x-signature header of a notification, `ts=<unix seconds>,v1=<hex>`, as the platform sends it. */
export function signatureHeader(secret: string, dataId: string, requestId: string, tsSeconds: number): string {
  return `ts=${tsSeconds},v1=${sign(secret, dataId, requestId, String(tsSeconds))}`;
}
