import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * OCPP security profile 2 without a proxy in front: https and wss:// on a second port (TLS_PORT) beside
 * plain HTTP on PORT, both served by the same app. Requests go through the app's router, WebSocket
 * upgrades to the central system (chargers at /ocpp/…); chargers still sign in with HTTP Basic.
 * A second port rather than TLS on PORT: plain HTTP stays for a reverse proxy (deploy/nginx.conf),
 * health checks and chargers not moved to wss yet. Client certificates (profile 3) are not asked for.
 */
export async function listenTls(app: FastifyInstance, tls: { certFile: string; keyFile: string; port: number }, host: string): Promise<Server> {
  const server = createServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) }, (req, res) => app.routing(req, res));
  server.on('upgrade', app.ocpp.central.handleUpgrade);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: tls.port, host, backlog: 4096 }, () => resolve());
  });
  app.log.info({ port: (server.address() as AddressInfo).port }, 'https and wss:// (OCPP security profile 2) listening');
  return server;
}

/** Stops accepting; the charger sockets are closed by the central system as on the plain port. */
export function closeTls(server: Server): void {
  server.close();
  server.closeIdleConnections();
}
