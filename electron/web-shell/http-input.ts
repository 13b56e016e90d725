import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { refuse } from '../../shared/kiosk-failure.ts';
import { refuseOnSocket } from './answers.ts';

// Reading what a browser sent the web shell: the request target, one header, the body; and the answer to a request
// Node itself could not read.

/**
 * The request target as a URL, or null when it cannot be one: only origin-form (`/path?query`) is taken, which is what
 * a browser sends to a server that is not a proxy; anything else (`//host`, `http://[::1`, `*`) would otherwise make
 * `new URL` throw or point elsewhere. issue 12: such a request gets 400, never 500.
 */
export function requestUrl(target: string | undefined, origin: string): URL | null {
  if (target === undefined || !target.startsWith('/') || target.startsWith('//')) return null;
  try {
    return new URL(target, origin);
  } catch {
    return null;
  }
}

/** A header's first value. */
export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The body as text, or null when it is longer than `limit` bytes (read to its end all the same, then dropped). */
export function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * issue 12: a request Node's parser cannot read (a garbage request line, an invalid method, a malformed header) gets
 * an answer, unreadable_request (headers_too_large, request_timeout for those), and the connection closes; never a
 * reset without an answer. As Node's own default does, nothing is written on a socket that can no longer take it or
 * whose response has already begun.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const response = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const code = error.code === 'HPE_HEADER_OVERFLOW' ? 'headers_too_large' : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 'request_timeout' : 'unreadable_request';
  refuseOnSocket(socket, refuse(code));
}
