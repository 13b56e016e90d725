import type { CreateOrderRequest, Order, RefundOrderRequest } from '../../shared/schemas/order.ts';
import type { PlatformRefundResponse } from '../../shared/schemas/platform-order.ts';
import { KioskFailure } from '../../shared/kiosk-failure.ts';

// The seams of the kiosk core (style guide 7): everything that reads time, randomness, the network or the keychain
// takes it as one of these, so the same services run in Electron, in the web shell and in tests.

export type { Clock, Random } from '../../node-common/time.ts';

/** Log lines never carry tokens or secrets: callers pass fields, and the logger redacts known secret shapes anyway. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Details for whoever services the kiosk, written only when the log is at debug level (issue 15). */
  debug?(message: string, fields?: Record<string, unknown>): void;
}

/**
 * Secrets the vault holds (issue 4: access token, refresh token, client secret), the relay's kiosk key a manager
 * enters in the settings (relay README "Kiosk keys"): it opens the store's event stream, so it is kept like a token;
 * and the manager PIN's pepper (issue 12, people/pin-pepper.ts): the key of the PIN hash, kept apart from the database.
 */
export const SECRET_NAMES = ['access_token', 'refresh_token', 'client_secret', 'relay_key', 'pin_pepper'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/**
 * The token vault (issue 4): the OS keychain through keytar in production; memory only in training mode. Methods
 * reject with VaultUnavailableError when no keychain service can be reached.
 */
export interface TokenVault {
  readonly kind: 'keychain' | 'memory';
  get(name: SecretName): Promise<string | null>;
  set(name: SecretName, value: string): Promise<void>;
  delete(name: SecretName): Promise<void>;
}

/** No keychain service can be reached (issue 28: a KioskFailure of code keychain_unavailable, with its own sentence). */
export class VaultUnavailableError extends KioskFailure<'keychain_unavailable'> {
  constructor(message?: string, options?: { cause?: unknown }) {
    super('keychain_unavailable', message, options);
    this.name = 'VaultUnavailableError';
  }
}

/** A call made with one idempotency key; the key is chosen and stored by the caller before the first send. */
export interface WriteOptions {
  idempotencyKey: string;
}

/**
 * The Orders API as the core uses it (seed 4.3–4.6), typed by the shared schemas. Implementations retry network
 * errors, 429 and 5xx with the same key, refresh the token once on 401, and reject with PlatformCallError subclasses.
 */
export interface OrdersPort {
  create(body: CreateOrderRequest, options: WriteOptions): Promise<Order>;
  get(id: string): Promise<Order>;
  cancel(id: string, options: WriteOptions): Promise<Order>;
  refund(id: string, body: RefundOrderRequest | undefined, options: WriteOptions): Promise<PlatformRefundResponse>;
}

/**
 * One order state from the platform itself: a GET (a reconcile, or the one a relay event triggers), a poll, the answer
 * to the kiosk's own create, or the cashier's "check status" (`refresh`, which replaces whatever is stored). Never a
 * relay event: issue 12, a webhook body is unsigned, so it is a wake-up call, never a fact.
 */
export interface OrderUpdate {
  order: Order;
  source: 'poll' | 'get' | 'create' | 'refresh';
}

/**
 * Silent receipt printing (issue 6 "Receipts"), provided by the Electron shell; the web shell has none and the
 * renderer falls back to the print dialog. `print` renders the order's 80 mm receipt and sends it to `printerName`
 * (null: the system default), rejecting when the printer refuses it.
 */
export interface ReceiptPrinter {
  list(): Promise<string[]>;
  print(orderId: string, printerName: string | null): Promise<void>;
}

/**
 * Training mode (issue 4 "Zero-config default"): the seller the kiosk connects itself with, and the "customer pays"
 * button. issue 13: training-only behaviour is injected by launch/ (launch/embedded-platform.ts knows the sandbox),
 * so the core never knows the sandbox's control API.
 */
export interface TrainingPort {
  clientId: string;
  clientSecret: string;
  countryCode: string;
  posId: string;
  /** Pays (or declines) the order as its customer would; rejects when the platform did not take it. */
  simulatePayment(orderId: string, outcome: 'approved' | 'rejected'): Promise<void>;
}
