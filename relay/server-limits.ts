import { createServer, type Server } from 'node:http';
import { DEFAULT_SERVER_LIMITS, httpServerOptions, type ServerLimits } from '../node-common/server-limits.ts';

// The limits live in node-common/ since the web shell shares them (issue 27 item 4); the relay's names stay here.
export { DEFAULT_SERVER_LIMITS, capConnections, checkServerLimits, httpServerOptions, type ServerLimits } from '../node-common/server-limits.ts';

/**
 * The relay's Node server with these limits, not listening and answering nothing yet (issue 14 "cold start"): the
 * kiosk's launch makes it listen before the relay's code is loaded (RelayOptions.boundServer). The options the relay
 * gives Fastify for a server of its own.
 */
export function relayServer(limits: ServerLimits = DEFAULT_SERVER_LIMITS): Server {
  return createServer(httpServerOptions(limits));
}
