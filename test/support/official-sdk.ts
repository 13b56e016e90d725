// The official Node SDK (mercadopago 3.x) pointed at the sandbox, for the tests that drive it (issue 2, issue 26).
// platform-facts "Official Node SDK facts": AppConfig.BASE_URL is read on every call, maxRetries 0, and one
// MercadoPagoConfig per call, because per-call options (the idempotency key among them) leak into later calls.
import assert from 'node:assert/strict';
import { AppConfig } from 'mercadopago/dist/utils/config/index.js';
import { MercadoPagoConfig, MercadoPagoError } from 'mercadopago';
import type { CreateOrderRequest } from 'mercadopago/dist/clients/order/create/types.js';

/** AppConfig.BASE_URL is declared readonly but read on every call (platform-facts): this view may set it. */
const appConfig = AppConfig as unknown as { BASE_URL: string };

/** Fields the SDK's response types do not declare (config.qr, reference_id …) are read through this view. */
export type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the SDK's types omit QR fields

/** Sends every later SDK call to `url`; returns what puts the SDK's own base URL back (for an after hook). */
export function pointSdkAt(url: string): () => void {
  const original = appConfig.BASE_URL;
  appConfig.BASE_URL = url;
  return () => {
    appConfig.BASE_URL = original;
  };
}

/** A fresh config per call (the SDK's options leak), no retries so a failure shows at once, a short timeout. */
export function sdkConfig(accessToken: string): MercadoPagoConfig {
  return new MercadoPagoConfig({ accessToken, options: { maxRetries: 0, timeout: 5_000 } });
}

/**
 * seed 4.3, dynamic mode on POS001, with `extra` fields merged in. The SDK's CreateOrderRequest types config for
 * online orders only (no config.qr), so the QR config goes through a cast: the wire body is exactly what the seed documents.
 */
export function qrOrder(externalReference: string, amount: string, extra: Partial<CreateOrderRequest> = {}): CreateOrderRequest {
  return {
    type: 'qr',
    external_reference: externalReference,
    total_amount: amount,
    ...extra,
    config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } } as CreateOrderRequest['config'],
    transactions: { payments: [{ amount }] },
  };
}

/** The error an SDK call rejects with; fails the test when it resolves or rejects with something else. */
export async function rejection(promise: Promise<unknown>): Promise<MercadoPagoError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof MercadoPagoError, `expected a MercadoPagoError, got ${String(error)}`);
    return error;
  }
  assert.fail('the SDK call resolved; it was expected to reject');
}
