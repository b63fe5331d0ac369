import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/** Which proxies' X-Forwarded-For is believed (TRUST_PROXY): none, a hop count, or their addresses / CIDR ranges. */
export type TrustProxy = false | number | string[];

/** TRUST_PROXY: unset, '', 'false' or '0': none; 'true': the nearest proxy (1 hop); N: N hops; else a comma list of addresses or ranges. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const v = (value ?? '').trim();
  if (!v || v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  return v.split(',').map((a) => a.trim()).filter(Boolean);
}

/** The function proxy-addr asks whether the hop at `index` (0: the TCP peer) is a proxy we trust. */
export function trustFunction(trust: TrustProxy): (address: string, index: number) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return (_address, index) => index < trust;
  return proxyAddr.compile(trust);
}

/**
 * The client's address as Fastify's req.ip works it out under the same TRUST_PROXY, for a request Fastify does
 * not route (a WebSocket upgrade): the TCP peer, or the nearest untrusted address in X-Forwarded-For.
 */
export function clientAddress(req: IncomingMessage, trust: (address: string, index: number) => boolean): string {
  return proxyAddr(req, trust) ?? req.socket.remoteAddress ?? '';
}
