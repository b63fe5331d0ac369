import type { FastifyInstance } from 'fastify';
import type { LmsLogEntry } from '@ev/core';
import type { ChargerMessage, ChargerPresence } from '../bus/index.ts';
import type { AllocationSnapshot } from '../lms/allocation-state.ts';
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
export function clusterLoadManagement(app: FastifyInstance, node: ClusterNode): { start(): void } {
  const { lms } = app;
  const lease = (locId: number) => `lms:${locId}`;
  /** Chargers of managed sites connected to other nodes, from the relayed presence. */
  const elsewhere = new Set<number>();

  lms.owns = (locId) => node.leases.holds(lease(locId));
  lms.onlineElsewhere = (cpId) => elsewhere.has(cpId);

  app.bus.on('chargerMessage', (m) => {
    if (lms.siteOf(m.cpId)) node.publishAll('lms:message', m);
  });
  app.bus.on('chargerPresence', (p) => {
    if (lms.siteOf(p.cpId)) node.publishAll('lms:presence', p);
  });
  lms.on('allocated', (locId) => node.publishAll('lms:allocated', { locId, chargers: lms.snapshot(locId) }));
  // What the allocating node did; connections and disconnections every node logs from the relayed presence.
  lms.log.on('entry', (entry) => {
    if (entry.kind !== 'online' && entry.kind !== 'offline') node.publishAll('lms:log', entry);
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

  /** Which managed chargers are on other nodes, from the online flags; then the picture is read again. */
  const resync = () =>
    app.db
      .query<{ cp_id: number }>(`SELECT cp_id FROM cps WHERE online_flag = 1 AND deleted_at IS NULL`)
      .then((rows) => {
        elsewhere.clear();
        for (const r of rows) if (!app.ocpp.central.connection(r.cp_id)) elsewhere.add(r.cp_id);
        lms.configurationChanged();
      })
      .catch((err) => app.log.warn({ err: err.message }, 'LMS: chargers on other nodes not read'));
  // Messages relayed while Redis was away are lost: statuses and sessions are read again from the database.
  node.onReconnected(() => void resync());

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
  return {
    start() {
      // Chargers flagged online that are not here are on another node (the presence sweep clears stale flags).
      void resync().then(renew);
      node.every(LEASE_RENEW_MS, renew);
    },
  };
}
