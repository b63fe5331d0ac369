import type { LmsCpStatus, LmsZoneStatus } from '@ev/core';
import { firstStart, lmsState } from './allocation-state.ts';
import type { LoadManager } from './runtime.ts';
import { WANTING, type ManagedCharger, type ManagedSite } from './site-model.ts';

const iso = (t: number | null | undefined) => (t == null ? null : new Date(t).toISOString());

/** The connector status shown for a charger: the one with a session, else a busy one, else the first. */
function connectorStatus(c: ManagedCharger): string {
  if (!c.online) return 'Offline';
  const tx = [...c.transactions.values()][0];
  if (tx && c.connectors.has(tx.connectorId)) return c.connectors.get(tx.connectorId)!;
  const statuses = [...c.connectors.entries()].sort((a, b) => a[0] - b[0]).map(([, s]) => s);
  return statuses.find((s) => s !== 'Available') ?? statuses[0] ?? 'N/A';
}

/** One charger as the LMS socket reports it (spec part 1 §7 status_update). */
export function cpStatus(c: ManagedCharger): LmsCpStatus {
  const status = lmsState(c);
  const tx = [...c.transactions.values()].sort((a, b) => a.startedAt - b.startedAt)[0];
  const a = c.allocation;
  // Spec §4: a status of charging clears queue data; any other status clears charge data.
  const charging = status === 'charging';
  const queueing = status === 'queueing';
  return {
    cp_id: c.cpId,
    loc_id: c.locId,
    zone_id: c.zoneId,
    status,
    cp_status: connectorStatus(c),
    queueing_pos: queueing && a?.state === 'queueing' ? a.position : null,
    start_queueing_at: queueing ? iso(c.queueSince) : null,
    distributed_current: charging && a?.state === 'charging' ? a.current : null,
    start_tran_at: charging ? iso(firstStart(c)) : null,
    select_time: tx?.plannedEnd ? Math.round((tx.plannedEnd - tx.startedAt) / 60_000) : null,
    expected_end_at: iso(tx?.plannedEnd),
    session_id: tx?.sessionId ?? null,
    curr_data: {
      current: c.measured.current,
      meter: tx && c.measured.energy !== null ? Math.max(0, c.measured.energy - tx.meterStart) : null,
      voltage: c.measured.voltage,
    },
    uncontrolled: c.uncontrolled,
  };
}

/** Per zone of a managed site: measured, distributed and maximum current (A). */
export function zoneStatuses(site: ManagedSite): LmsZoneStatus[] {
  return [...site.zones.values()].map((z) => {
    let measured = 0;
    let distributing = 0;
    for (const c of site.chargers.values()) {
      if (c.zoneId !== z.zoneId) continue;
      if (c.transactions.size && c.measured.current !== null) measured += c.measured.current;
      if (c.allocation?.state === 'charging') distributing += c.allocation.current;
    }
    return {
      zone_id: z.zoneId,
      loc_id: site.locId,
      measured_current: Math.round(measured * 10) / 10,
      distributing_current: Math.round(distributing * 10) / 10,
      max_available_current: z.maxAvailable,
    };
  });
}

/** Connectors load management holds at 0 A in its queue, as parallel arrays (SQL unnest parameters). */
export interface QueuedConnectors {
  cpIds: number[];
  connectorIds: number[];
  positions: number[];
}

/**
 * The connectors of the sites given that the LMS dashboard shows queueing (lmsState, the one rule): on each
 * queueing charger, those with a car plugged in or a transaction (its other connectors are free). The live
 * dashboards count and show them as queueing from this, so every screen tells the same story.
 */
export function queuedConnectors(lms: LoadManager, locIds: number[]): QueuedConnectors {
  const out: QueuedConnectors = { cpIds: [], connectorIds: [], positions: [] };
  for (const locId of locIds) {
    for (const c of lms.sites.get(locId)?.chargers.values() ?? []) {
      const a = c.allocation;
      if (lmsState(c) !== 'queueing' || a?.state !== 'queueing') continue;
      const held = new Set([...c.transactions.values()].map((tx) => tx.connectorId));
      for (const [connectorId, status] of c.connectors) if (WANTING.has(status)) held.add(connectorId);
      for (const connectorId of held) {
        out.cpIds.push(c.cpId);
        out.connectorIds.push(connectorId);
        out.positions.push(a.position);
      }
    }
  }
  return out;
}
