import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Result } from '../../shared/kiosk-api.ts';
import { kioskStatus, type KioskOwnErrorCode } from '../../shared/kiosk-errors.ts';
import type { KioskFailure } from '../../shared/kiosk-failure.ts';

// How the web shell answers (issue 28 "Errors from the table"): a refusal's status and words come from the kiosk's
// table (shared/kiosk-errors.ts) through refuse(code), never from the call site; the scan in
// test/unit/electron/web-shell/no-own-errors.test.ts keeps it so.

/** A JSON answer, never cached nor sniffed. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(JSON.stringify(body));
}

/** A refusal as a Result, with the table's status for its code. */
export function refusal(res: ServerResponse, failure: KioskFailure<KioskOwnErrorCode>): void {
  json(res, kioskStatus(failure.code), { ok: false, error: failure.kioskError() });
}

/**
 * A dispatched call's Result (style guide 5: results, not throws): the exchange worked, so 200 whatever the Result
 * says; only a payload the contract's schema refused (invalid_input) is the request's own fault and gets its status.
 * issue 7: never a 5xx for a Result, so a service's failure is never mistaken for the shell's.
 */
export function answerResult(res: ServerResponse, result: Result<unknown>): void {
  json(res, result.ok || result.error.code !== 'invalid_input' ? 200 : kioskStatus('invalid_input'), result);
}

/**
 * A refusal written straight on a socket whose request Node's parser could not read (no ServerResponse exists), then
 * the connection closes.
 */
export function refuseOnSocket(socket: Duplex, failure: KioskFailure<KioskOwnErrorCode>): void {
  const status = kioskStatus(failure.code);
  const body = JSON.stringify({ ok: false, error: failure.kioskError() });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}
