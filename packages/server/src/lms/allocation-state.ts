import { storedText } from '@ev/core';
import type { Database } from '../db/client.ts';
import { allocate } from './allocator.ts';
import type { LmsLog } from './log.ts';
import { wants, type ManagedCharger, type ManagedSite } from './site-model.ts';
import type { ChargerLoad } from './types.ts';

// The allocator's outcome on each charger of a site: decided here, saved for restarts and reports,
// and shared with the other nodes for their live screens.

/** What the node that reallocates a site tells the other nodes, per charger, for their live screens. */
export interface AllocationSnapshot {
  cpId: number;
  allocation: ManagedCharger['allocation'];
  wantsSince: number | null;
  queueSince: number | null;
  uncontrolled: boolean;
  profileStatus: string | null;
  sentDefault: number | null;
  sentTx: [number, number][];
}

/** Runs the allocator over the site's managed chargers and records the outcome on each. */
export function decide(site: ManagedSite, now: number, log: LmsLog): void {
  const loads: ChargerLoad[] = [];
  for (const c of site.chargers.values()) {
    if (c.zoneId === null) continue;
    const wanting = wants(c);
    if (wanting) c.wantsSince ??= now;
    else c.wantsSince = null;
    // Offline with a transaction: it goes on charging at whatever it was last told, out of our reach.
    const unreachable = !c.online && c.transactions.size > 0;
    loads.push({
      cpId: c.cpId,
      zoneId: c.zoneId,
      wants: wanting || unreachable,
      since: c.wantsSince ?? now,
      measured: c.measured.current ?? undefined,
      uncontrolled: c.uncontrolled || unreachable,
    });
  }
  const allocations = allocate({ mode: site.mode, zones: [...site.zones.values()], chargers: loads });
  for (const a of allocations) {
    const c = site.chargers.get(a.cpId)!;
    const was = c.allocation;
    c.allocation = a;
    if (a.state === 'queueing') c.queueSince ??= now;
    else c.queueSince = null;
    if (a.state === 'queueing' && was?.state !== 'queueing') {
      log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'info', kind: 'queued', message: storedText('msg.log.lms.queued', { position: a.position ?? '' }) });
    } else if (a.state === 'charging' && was?.state === 'queueing') {
      log.add({ locId: site.locId, cpId: c.cpId, cpNo: c.cpNo, level: 'info', kind: 'queue_started', message: storedText('msg.log.lms.queue_started', { current: a.current }) });
    }
  }
}

export function snapshotOf(site: ManagedSite | undefined): AllocationSnapshot[] {
  return [...(site?.chargers.values() ?? [])].map((c) => ({
    cpId: c.cpId, allocation: c.allocation, wantsSince: c.wantsSince, queueSince: c.queueSince, uncontrolled: c.uncontrolled,
    profileStatus: c.profileStatus, sentDefault: c.sentDefault, sentTx: [...c.sentTx],
  }));
}

/** The outcome of another node's reallocation of a site, for this node's live screens. */
export function applySnapshotTo(site: ManagedSite, chargers: AllocationSnapshot[]): void {
  for (const s of chargers) {
    const c = site.chargers.get(s.cpId);
    if (!c) continue;
    Object.assign(c, { allocation: s.allocation, wantsSince: s.wantsSince, queueSince: s.queueSince, uncontrolled: s.uncontrolled,
      profileStatus: s.profileStatus, sentDefault: s.sentDefault, sentTx: new Map(s.sentTx) });
  }
}

/** Saves what a restart needs (queue order, accepted default, uncontrolled) and what reports show. */
export async function saveAllocations(db: Database, site: ManagedSite): Promise<void> {
  const managed = [...site.chargers.values()].filter((c) => c.zoneId !== null);
  if (!managed.length) return;
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  const col = <T>(f: (c: ManagedCharger) => T) => managed.map(f);
  await db.query(
    `INSERT INTO lms_allocations (cp_id, loc_id, zone_id, state, distributed_current, queueing_pos, wants_since,
                                  start_queueing_at, start_tran_at, accepted_current, profile_status, uncontrolled, lupd_dttm)
     SELECT u.*, now() FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::float8[], $6::int[], $7::timestamptz[],
                                   $8::timestamptz[], $9::timestamptz[], $10::float8[], $11::text[], $12::smallint[]) AS u
     ON CONFLICT (cp_id) DO UPDATE SET loc_id = EXCLUDED.loc_id, zone_id = EXCLUDED.zone_id, state = EXCLUDED.state,
       distributed_current = EXCLUDED.distributed_current, queueing_pos = EXCLUDED.queueing_pos, wants_since = EXCLUDED.wants_since,
       start_queueing_at = EXCLUDED.start_queueing_at, start_tran_at = EXCLUDED.start_tran_at,
       accepted_current = EXCLUDED.accepted_current, profile_status = EXCLUDED.profile_status,
       uncontrolled = EXCLUDED.uncontrolled, lupd_dttm = now()`,
    [
      col((c) => c.cpId),
      col((c) => c.locId),
      col((c) => c.zoneId),
      col((c) => lmsState(c)),
      col((c) => (c.allocation?.state === 'charging' ? c.allocation.current : 0)),
      col((c) => (c.allocation?.state === 'queueing' ? c.allocation.position : null)),
      col((c) => iso(c.wantsSince)),
      col((c) => iso(c.queueSince)),
      col((c) => iso(firstStart(c))),
      col((c) => c.sentDefault),
      col((c) => c.profileStatus),
      col((c) => (c.uncontrolled ? 1 : 0)),
    ],
  );
}

/** The LMS charger state of spec §4. */
export function lmsState(c: ManagedCharger): 'available' | 'charging' | 'disconnected' | 'queueing' {
  if (!c.online) return 'disconnected';
  const a = c.allocation;
  if (a?.state === 'queueing') return 'queueing';
  if (a?.state === 'charging' || (a?.state === 'uncontrolled' && c.transactions.size)) return 'charging';
  return c.transactions.size && c.zoneId === null ? 'charging' : 'available';
}

export function firstStart(c: ManagedCharger): number | null {
  let first: number | null = null;
  for (const tx of c.transactions.values()) if (first === null || tx.startedAt < first) first = tx.startedAt;
  return first;
}
