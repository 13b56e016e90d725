import type { Clock, Logger } from '../ports.ts';
import { redactAgain } from '../host/logger.ts';

// issue 26 "Keep the raw answer of an unreadable order in the log (redacted) and the support bundle, so a new platform
// value is diagnosable". Two kinds are kept: an answer the reader refused (`unreadable`: a field the kiosk needs is
// missing or malformed, the call failed with unexpected_response), and an order read with a status the kiosk does not
// know (`unconfirmed`: shared/order-status.ts). Each is written once to the log, where it is new, and the newest ones
// are kept in memory for the support bundle (electron/core/support/diagnostics.ts, platform-answers.json).
//
// Redaction, before anything is kept: the answer's payer data (fields named payer, email, name, identification, phone,
// address, card..., at any depth) is replaced, long texts are cut, deep or long structures are cut; the logger and the
// bundle then pass every string through their own secret redaction (tokens, Bearer values, the running kiosk's secrets).

export type AnswerKind = 'unreadable' | 'unconfirmed';

export interface PlatformAnswerNote {
  kind: AnswerKind;
  /** `GET /v1/orders/{id}`, `POST /v1/orders`, ...: the call that brought the answer. */
  call: string;
  /** What the kiosk could not read (schema paths and issue codes), or the unknown status and detail. */
  reason: string;
  /** The answer, redacted (redactAnswer). */
  answer: unknown;
  firstAt: string;
  lastAt: string;
  /** How many times this same answer came (a poll asks every 2 s; the log says it once). */
  count: number;
}

/** How many distinct answers are kept for the bundle; the oldest goes first. */
const LIMIT = 20;
const MAX_TEXT = 200;
const MAX_ITEMS = 20;
const MAX_DEPTH = 8;
export const REDACTED_FIELD = '[redacted]';

// Compared lowercased with separators removed (payer_email, payerEmail and Payer-Email are one name). Payer and card
// data have no place in a diagnosis of a status; tokens are here as well as in the logger's own net.
const PERSONAL_KEYS = new Set([
  'payer',
  'buyer',
  'collector',
  'email',
  'name',
  'firstname',
  'lastname',
  'fullname',
  'identification',
  'documentnumber',
  'phone',
  'address',
  'additionalinfo',
  'card',
  'cardholder',
  'cardholdername',
  'firstsixdigits',
  'lastfourdigits',
  'bin',
  'ip',
  'ipaddress',
  'token',
  'accesstoken',
  'refreshtoken',
  'authorization',
  'secret',
]);

/**
 * `raw` with payer data replaced, token-shaped text hidden (the logger's own rules: a body could echo one) and its size
 * bounded (see the top of this file).
 */
export function redactAnswer(raw: unknown, depth = 0): unknown {
  if (typeof raw === 'string') {
    const text = redactAgain(raw, []);
    return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…[${text.length - MAX_TEXT} more]` : text;
  }
  if (raw === null || typeof raw !== 'object') return raw;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(raw)) {
    const items = raw.slice(0, MAX_ITEMS).map((item) => redactAnswer(item, depth + 1));
    return raw.length > MAX_ITEMS ? [...items, `[${raw.length - MAX_ITEMS} more]`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    out[key] = PERSONAL_KEYS.has(key.toLowerCase().replace(/[-_\s]/g, '')) ? REDACTED_FIELD : redactAnswer(value, depth + 1);
  }
  return out;
}

const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The platform answers the kiosk could not fully understand, newest last (see the top of this file). */
export class PlatformAnswerJournal {
  readonly #notes = new Map<string, PlatformAnswerNote>();
  readonly #logger: Logger;
  readonly #clock: Clock;

  constructor(options: { logger?: Logger | undefined; clock: Clock }) {
    this.#logger = options.logger ?? silentLogger;
    this.#clock = options.clock;
  }

  /** An answer the reader refused. */
  unreadable(call: string, raw: unknown, reason: string): void {
    this.#note('unreadable', call, raw, reason, `${call}|${reason}`);
  }

  /** An order read with a status the kiosk does not know (status `unconfirmed`, `platform_status` its word). */
  unconfirmed(call: string, order: { id: string; platform_status?: string | undefined; status_detail: string }): void {
    const reason = `status ${order.platform_status ?? '?'} / ${order.status_detail}`;
    this.#note('unconfirmed', call, order, reason, `${order.id}|${reason}`);
  }

  /** The kept notes, oldest first (the support bundle's platform-answers.json). */
  list(): PlatformAnswerNote[] {
    return [...this.#notes.values()].map((note) => ({ ...note }));
  }

  #note(kind: AnswerKind, call: string, raw: unknown, reason: string, key: string): void {
    try {
      const at = new Date(this.#clock.now()).toISOString();
      const known = this.#notes.get(key);
      if (known) {
        known.count += 1;
        known.lastAt = at;
        return;
      }
      const note: PlatformAnswerNote = { kind, call, reason, answer: redactAnswer(raw), firstAt: at, lastAt: at, count: 1 };
      this.#notes.set(key, note);
      if (this.#notes.size > LIMIT) this.#notes.delete(this.#notes.keys().next().value as string);
      this.#logger.warn(
        kind === 'unreadable'
          ? 'the payment platform answered with a body this kiosk cannot read; the answer (redacted) follows'
          : 'the payment platform answered with an order status this kiosk does not know; shown as not confirmed and checked again',
        { call, reason, answer: note.answer },
      );
    } catch {
      // Diagnosis must never break the call it watches.
    }
  }
}
