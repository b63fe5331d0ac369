import type { ChargerMessage } from '../bus/index.ts';
import { latest, readings } from '../ocpp/meter-values.ts';
import type { ManagedCharger } from './site-model.ts';

/**
 * What a report changed for load management: `reallocate` the site, only `redraw` it (the dashboard; the
 * allocation stands), `started` a transaction (reallocate once its planned end is read), or nothing.
 */
export type ReportEffect = { kind: 'reallocate' } | { kind: 'redraw' } | { kind: 'started'; tranId: number } | null;

/**
 * Applies a charger's report (committed, as the bus carries it) to its managed charger. Reports are state:
 * applying one twice leaves the charger as once (a BootNotification forgets what was sent, so limits go again).
 */
export function applyReport(c: ManagedCharger, m: ChargerMessage): ReportEffect {
  const p = m.params ?? {};
  switch (m.action) {
    case 'StatusNotification':
      if (p.connectorId > 0) c.connectors.set(p.connectorId, p.status);
      return { kind: 'reallocate' };
    case 'StartTransaction': {
      const tranId = (m.response as any).transactionId;
      if ((m.response as any).idTagInfo?.status !== 'Accepted' || typeof tranId !== 'number') return null;
      c.transactions.set(tranId, {
        tranId,
        connectorId: p.connectorId,
        sessionId: tranId,
        startedAt: Date.parse(p.timestamp) || Date.now(),
        meterStart: p.meterStart,
        plannedEnd: null,
      });
      c.measured = { current: null, voltage: null, energy: p.meterStart };
      return { kind: 'started', tranId };
    }
    case 'StopTransaction':
      c.transactions.delete(p.transactionId);
      c.sentTx.delete(p.transactionId);
      return { kind: 'reallocate' };
    case 'MeterValues': {
      const r = latest(readings(p.meterValue ?? []));
      c.measured = {
        current: r.ampere ?? c.measured.current,
        voltage: r.voltage ?? c.measured.voltage,
        energy: r.energy ?? c.measured.energy,
      };
      // Only an uncontrolled charger's measurement changes the allocation (it is counted at what it draws).
      return { kind: c.uncontrolled ? 'reallocate' : 'redraw' };
    }
    case 'BootNotification':
      // A rebooted charger may have lost what it was told: its limits are unknown until sent again.
      c.sentDefault = null;
      c.sentTx.clear();
      return { kind: 'reallocate' };
    default:
      return null;
  }
}
