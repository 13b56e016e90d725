import { createServer, type Server } from 'node:http';

/** issue 12 "slow clients": what a client may hold of the sandbox's Node server, and for how long. */
export interface ServerLimits {
  /** A request's headers must arrive within this (slowloris: a header byte at a time is cut off, 408). */
  headersTimeoutMs: number;
  /** The whole request (headers and body) must arrive within this; the answer itself may take longer (delay faults). */
  requestTimeoutMs: number;
  /** An idle kept-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections beyond this are closed as soon as they are accepted. */
  maxConnections: number;
  /** How often Node looks for requests past their timeouts (its default, 30 s, would let a slowloris stay that long). */
  timeoutCheckIntervalMs: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  // Above the 4 s undici (the kiosk's fetch) keeps an idle connection, so the client always lets go first.
  keepAliveTimeoutMs: 5_000,
  // Every test and the kiosk use a handful; a bound keeps file descriptors for SQLite when something floods.
  maxConnections: 512,
  timeoutCheckIntervalMs: 1_000,
};


/**
 * The sandbox's Node server with these limits, not listening and answering nothing yet (issue 14 "cold start"): the
 * kiosk's launch makes it listen before the sandbox's code is loaded, so the kiosk knows the training platform's URL
 * while the sandbox is built afterwards on it (SandboxOptions.boundServer). The same options the sandbox gives Fastify
 * for a server of its own (sandbox/app.ts buildHttp).
 */
export function sandboxServer(limits: ServerLimits = SERVER_LIMITS): Server {
  const server = createServer({ headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, keepAliveTimeout: limits.keepAliveTimeoutMs, connectionsCheckingInterval: limits.timeoutCheckIntervalMs });
  server.maxConnections = limits.maxConnections;
  return server;
}
