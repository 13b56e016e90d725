import { isIP } from 'node:net';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { apiErrorBody } from '../../shared/errors.ts';

/** The connection a request came in on, as Node's socket reports it (an injected request has neither field). */
export interface LocalEnd {
  localAddress?: string | undefined;
  localPort?: number | undefined;
}

/**
 * Which Host headers the control API (`/sandbox/*`) answers (issue 12, DNS rebinding): a web page in the cashier's
 * browser can reach 127.0.0.1 through a name of its own that resolves there, but its requests then carry that name in
 * Host, so the sandbox's dashboard powers (paying orders, moving the clock, faults) stay out of its reach.
 * Accepted: localhost, 127.0.0.1, [::1], the address the connection came in on (an IP literal cannot be rebound), the
 * host it was told to listen on and any allowed name, each with the port the connection came in on.
 */
export class ControlHosts {
  readonly #names = new Set(['localhost', '127.0.0.1', '[::1]']);

  constructor(allowed: readonly string[] = []) {
    for (const name of allowed) this.allow(name);
  }

  /** Accepts `name` (a host name or an IP address, with no port) from now on. */
  allow(name: string): void {
    this.#names.add(hostKey(name));
  }

  /** Whether the Host header names this server on the port of the connection; a missing Host never does. */
  permits(host: string | undefined, local: LocalEnd): boolean {
    if (!host) return false;
    const parsed = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(host);
    if (!parsed) return false;
    const name = hostKey(parsed[1] as string);
    const port = parsed[2] === undefined ? 80 : Number(parsed[2]);
    // An injected request (app.inject) has no socket port: nothing came over the network.
    if (local.localPort !== undefined && port !== local.localPort) return false;
    if (this.#names.has(name)) return true;
    return local.localAddress !== undefined && name === hostKey(local.localAddress.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, ''));
  }

  /** The accepted names, for the refusal's message. */
  names(): string[] {
    return [...this.#names];
  }
}

/** A host compared as browsers send it: lower case, an IPv6 address in brackets. */
function hostKey(name: string): string {
  const lower = name.toLowerCase();
  return isIP(lower) === 6 ? `[${lower}]` : lower;
}

/**
 * issue 12 (DNS rebinding): every route under /sandbox/ answers only a Host that names this sandbox. The check is keyed on
 * the declared route, not the raw URL, so no spelling of the path slips by. It is attached to each such route as it is
 * declared (an onRoute hook: call this before any route is registered) rather than run on every request: a global hook
 * had to read request.routeOptions, which Fastify builds anew on each read, and that showed in the create-order
 * throughput profile (issue 14). The Orders API carries no hook at all.
 */
export function guardControlRoutes(app: FastifyInstance, hosts: ControlHosts): void {
  const guard: onRequestHookHandler = (request, reply, done) => {
    if (hosts.permits(request.headers.host, request.socket)) return done();
    const given = request.headers.host === undefined ? 'none' : JSON.stringify(request.headers.host.slice(0, 100));
    const port = request.socket.localPort;
    const names = hosts.names().map((name) => (port === undefined ? name : `${name}:${port}`));
    reply.code(403).send(
      apiErrorBody(
        'host_not_allowed',
        ['host'],
        `The control API answers only requests addressed to this sandbox as ${names.join(', ')} (or the address the request came in on); Host was ${given}. Start the sandbox with --allow-host NAME to accept another name.`,
      ),
    );
  };
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/sandbox/')) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    // The HEAD route Fastify adds for a GET is declared with the GET's options, which already hold the guard.
    if (!own.includes(guard)) route.onRequest = [guard, ...own];
  });
}
