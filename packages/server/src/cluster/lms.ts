import type { FastifyInstance } from 'fastify';
import type { LmsLogEntry } from '@ev/core';
import type { ChargerMessage, ChargerPresence } from '../bus/index.ts';
import type { AllocationSnapshot } from '../lms/runtime.ts';
import type { ClusterNode } from './node.ts';

/** How often a node renews the site leases it holds and tries to take free ones. */
const LEASE_RENEW_MS = 5000;

/**
 * Load management across nodes. Every node keeps the picture of every load-managed site (the
 * messages of a managed charger are relayed to all nodes, wherever it is connected), so a
 * dashboard on any node shows it; but only the node holding a site's lease reallocates the site
 * and sends its limits (through the command forwarding, to whichever node holds each charger),
 * then tells the others the outcome. A node that dies stops renewing its leases; another takes
 * them over and sends every limit again.
 */
export function clusterLoadManagement(app: FastifyInstance, node: ClusterNode): { start(): void; stop(): void } {
  const { lms } = app;
  const lease = (locId: number) => `lms:${locId}`;
  /** Chargers of managed sites connected to other nodes, from the relayed presence. */
  const elsewhere = new Set<number>();

  lms.owns = (locId) => node.leases.holds(lease(locId));
  lms.onlineElsewhere = (cpId) => elsewhere.has(cpId);

  app.bus.on('chargerMessage', (m) => {
    if (!node.isRelaying && lms.siteOf(m.cpId)) node.publishAll({ t: 'lms', kind: 'message', data: m });
  });
  app.bus.on('chargerPresence', (p) => {
    if (!node.isRelaying && lms.siteOf(p.cpId)) node.publishAll({ t: 'lms', kind: 'presence', data: p });
  });
  lms.on('allocated', (locId) => node.publishAll({ t: 'lms', kind: 'allocated', data: { locId, chargers: lms.snapshot(locId) } }));
  // What the allocating node did; connections and disconnections every node logs from the relayed presence.
  lms.log.on('entry', (entry) => {
    if (!node.isRelaying && entry.kind !== 'online' && entry.kind !== 'offline') node.publishAll({ t: 'lms', kind: 'log', data: entry });
  });

  node.onAll('lms:message', (m: ChargerMessage) => node.replay(() => lms.onMessage(m)));
  node.onAll('lms:presence', (p: ChargerPresence) => {
    if (p.online) elsewhere.add(p.cpId);
    else elsewhere.delete(p.cpId);
    node.replay(() => lms.onPresence(p));
  });
  node.onAll('lms:allocated', ({ locId, chargers }: { locId: number; chargers: AllocationSnapshot[] }) => {
    if (!lms.owns!(locId)) lms.applySnapshot(locId, chargers);
  });
  node.onAll('lms:log', (entry: LmsLogEntry) =>
    node.replay(() => lms.log.add({ locId: entry.loc_id, cpId: entry.cp_id, cpNo: entry.cp_no, level: entry.level, kind: entry.kind, message: entry.message })),
  );

  const renew = async () => {
    for (const locId of lms.sites.keys()) {
      const had = node.leases.holds(lease(locId));
      if ((await node.leases.acquire(lease(locId))) && !had) {
        app.log.info({ locId }, 'LMS: this node now allocates the site');
        lms.tookOver(locId);
      }
    }
    // Sites no longer load-managed: their leases go back.
    for (const name of node.leases.heldNames()) {
      if (name.startsWith('lms:') && !lms.sites.has(Number(name.slice(4)))) await node.leases.release(name);
    }
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    start() {
      // Chargers flagged online that are not here are on another node (the presence sweep clears stale flags).
      void app.db
        .query<{ cp_id: number }>(`SELECT cp_id FROM cps WHERE online_flag = 1 AND deleted_at IS NULL`)
        .then((rows) => {
          for (const r of rows) if (!app.ocpp.central.connection(r.cp_id)) elsewhere.add(r.cp_id);
          lms.configurationChanged();
        })
        .catch((err) => app.log.warn({ err: err.message }, 'LMS: chargers on other nodes not read'))
        .then(renew);
      timer = setInterval(() => void renew().catch((err) => app.log.warn({ err: err.message }, 'LMS: site leases not renewed')), LEASE_RENEW_MS);
      timer.unref();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
