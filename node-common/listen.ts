import type { RequestListener, Server } from 'node:http';

/**
 * The http:// URL of a server that is listening on `host` (an IPv6 address in brackets, RFC 3986 3.2.2). Throws,
 * naming `what`, when it is not listening on a TCP port.
 */
export function listeningUrl(server: Server, host: string, what: string): string {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`${what} is not listening on a TCP port`);
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * Starts a node:http server on `port` (0 picks a free one) and `host`. Resolves with its URL once it listens; rejects
 * with the listen error (EADDRINUSE, EACCES) otherwise, leaving no listener behind.
 */
export function listen(server: Server, port: number, host: string, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      try {
        resolve(listeningUrl(server, host, what));
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/**
 * issue 14 "cold start": Fastify's `serverFactory` for an app that answers on `server`, a node:http server its caller
 * made (the kiosk's launch makes the training sandbox's and relay's listen before their code is loaded, so the kiosk
 * knows their URLs while they are built). Requests that come before the app is ready are not expected: nothing is
 * told the URL until then.
 */
export function onServer(server: Server): (handler: RequestListener) => Server {
  return (handler) => server.on('request', handler);
}

/**
 * Closes a server an app did not listen on itself (onServer): Fastify closes only a server it listened on, so its
 * `forceCloseConnections` is done here too (open connections, kept-alive ones and streams, are closed).
 */
export function closeBoundServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
