// The socket limits of the project's Node servers that face clients it does not control: the relay's (issue 12) and
// the web shell's (issue 27 item 4: "socket limits like the relay's"), from one module so the two keep the same values.
import type { Server } from 'node:http';

/**
 * How long a client may take to send a request, and how many sockets may be open at once (issue 12, "slow clients"):
 * a slowloris that trickles its headers holds a socket for `headersTimeoutMs` at most, then gets 408 and is closed.
 * These bound receiving the request only: an SSE stream is a long response to a short request, so none of them cuts it
 * (Node checks headersTimeout and requestTimeout only until the request is fully received; keepAliveTimeout only
 * between requests).
 */
export interface ServerLimits {
  /** The whole header block must arrive within this. */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (at least headersTimeoutMs). */
  requestTimeoutMs: number;
  /** An idle keep-alive socket is closed after this; longer than a proxy's own (nginx 60 s, AWS ALB 60 s). */
  keepAliveTimeoutMs: number;
  /** Sockets beyond this are closed at once. Every kiosk stream holds one: size it for the kiosks plus headroom. */
  maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000, maxConnections: 10_000 };

/** Throws one clear sentence when the limits cannot work together. */
export function checkServerLimits(limits: ServerLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`server limit ${name} must be a positive whole number, got ${value}`);
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error('the headers timeout cannot be longer than the request timeout');
}

/**
 * Options for Node's http.createServer. Node looks for expired requests every connectionsCheckingInterval (30 s by
 * default), which would let a slowloris outlive a 10 s headers timeout threefold: check at a tenth of it (at most 1 s).
 */
export function httpServerOptions(limits: ServerLimits): { headersTimeout: number; requestTimeout: number; keepAliveTimeout: number; connectionsCheckingInterval: number } {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(limits.headersTimeoutMs / 10))),
  };
}

/** Caps the server's sockets; `onRefused` is called for each one closed at once because of the cap. */
export function capConnections(server: Server, limits: ServerLimits, onRefused: () => void): void {
  server.maxConnections = limits.maxConnections;
  server.on('drop', onRefused);
}

/**
 * The web shell's (issue 27 item 4): the relay's timeouts, and fewer sockets, since only this PC's browser talks to it
 * (a page holds a few connections and one event stream; a second window or a reload a few more).
 */
export const WEB_SHELL_SERVER_LIMITS: ServerLimits = { ...DEFAULT_SERVER_LIMITS, maxConnections: 256 };
