import { SECURITY_ALERT_TYPES } from '@ev/core';

/**
 * Which OCPP 2.0.1 station events are charger problems, in the terms of the 1.6 alerts (monitor.ts): an
 * error code (one of 1.6's ChargePointErrorCode where one fits) and a message headed by its connector (the
 * EVSE), so that they open, count and clear as a 1.6 StatusNotification error does.
 */

/** Raise (or count again) the charger's open alert of errorId, or fix it where it is about connectorId. */
export interface AlertChange {
  kind: 'raise' | 'fix';
  errorId: string;
  connectorId: number;
  message: string;
}

interface EventData {
  trigger: 'Alerting' | 'Delta' | 'Periodic';
  actualValue: string;
  cleared?: boolean;
  techCode?: string;
  techInfo?: string;
  eventNotificationType: string;
  component: { name: string; instance?: string; evse?: { id: number; connectorId?: number } };
  variable: { name: string; instance?: string };
}

/** Boolean variables of the 2.0.1 device model (Part 2 Appendix 3) whose true is a fault of their component. */
const PROBLEM_VARIABLES = new Set(['Problem', 'Tripped']);

/** The 1.6 error code a component's fault amounts to; any other component's is OtherError. */
const ERROR_OF_COMPONENT: Record<string, string> = {
  ConnectorPlugRetentionLock: 'ConnectorLockFailure',
  TokenReader: 'ReaderFailure',
  PowerContactor: 'PowerSwitchFailure',
  FiscalMetering: 'PowerMeterFailure',
  RCD: 'GroundFailure',
  OverCurrentProtection: 'OverCurrentFailure',
};

const named = (name: string, instance?: string) => (instance ? `${name}[${instance}]` : name);

/**
 * A NotifyEvent's problems: a problem variable (Problem, Tripped) reported true by a Delta or Alerting event
 * raises, reported false or cleared fixes; a threshold monitor's Alerting event (Temperature: HighTemperature,
 * else OtherError) raises, its cleared event fixes. Periodic reports and other deltas (a state that changed)
 * are no problem.
 */
export function notifyEventAlerts(params: { eventData?: EventData[] }): AlertChange[] {
  const changes: AlertChange[] = [];
  for (const e of params.eventData ?? []) {
    if (e.trigger === 'Periodic') continue;
    const problemVariable = PROBLEM_VARIABLES.has(e.variable.name);
    const monitorAlert = !problemVariable && e.trigger === 'Alerting' && e.eventNotificationType !== 'HardWiredNotification';
    if (!problemVariable && !monitorAlert) continue;
    const errorId = problemVariable ? (ERROR_OF_COMPONENT[e.component.name] ?? 'OtherError') : e.variable.name === 'Temperature' ? 'HighTemperature' : 'OtherError';
    const bad = !e.cleared && (monitorAlert || e.actualValue.trim().toLowerCase() === 'true');
    const connectorId = e.component.evse?.id ?? 0;
    const parts = [`Connector ${connectorId}: ${named(e.component.name, e.component.instance)} ${named(e.variable.name, e.variable.instance)} = ${e.actualValue}`];
    if (e.techCode) parts.push(`tech code ${e.techCode}`);
    if (e.techInfo) parts.push(e.techInfo);
    changes.push({ kind: bad ? 'raise' : 'fix', errorId, connectorId, message: parts.join(', ').slice(0, 1000) });
  }
  return changes;
}

/**
 * A SecurityEventNotification of a type that needs a person (SECURITY_ALERT_TYPES: tampering, firmware or
 * certificates that fail their checks, memory exhausted, replay attacks, failed maintenance logins). Routine
 * ones (a reboot, the clock set, firmware updated) are only logged.
 */
export function securityEventAlert(params: { type: string; techInfo?: string }): { errorId: string; message: string } | null {
  if (!(SECURITY_ALERT_TYPES as readonly string[]).includes(params.type)) return null;
  return { errorId: params.type, message: `Security event ${params.type}${params.techInfo ? `: ${params.techInfo}` : ''}` };
}
