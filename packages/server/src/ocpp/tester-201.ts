import type { TesterMessage } from '@ev/core';
import { HANDLERS_201 } from './v201/handlers.ts';
import { SHARED_TEMPLATES } from './tester-shared.ts';

/**
 * The message tester and charger simulator for an OCPP 2.0.1 station (tester.ts): the 2.0.1 messages a
 * station sends, injected through the same handling as the station's own frames (v201/handlers.ts) and
 * logged with their 2.0.1 request types. The commands to the charger are the portal's (1.6-shaped payloads,
 * sent as the 2.0.1 message of the same meaning by v201/commands.ts), as for the portal's buttons.
 */

/** The charger-initiated 2.0.1 actions the central system handles. */
export const CHARGER_ACTIONS_201: readonly string[] = Object.keys(HANDLERS_201);

const COMMANDS: readonly TesterMessage[] = (['ChangeAvailability', 'SetChargingProfile', 'TriggerMessage'] as const)
  .map((action) => ({ name: action, action, direction: 'out' as const }));

const inbound = (name: string, action = name): TesterMessage => ({ name, action, direction: 'in' });

/**
 * The tester's 2.0.1 whitelist: the counterparts of its 1.6 one (a transaction is TransactionEvent Started,
 * Updated, Ended instead of Start/StopTransaction) and the station's events, which raise alerts (alerts/).
 */
export const TESTER_MESSAGES_201: readonly TesterMessage[] = [
  inbound('Authorize'),
  inbound('BootNotification'),
  inbound('Heartbeat'),
  inbound('MeterValues'),
  inbound('TransactionEvent: Started', 'TransactionEvent'),
  inbound('TransactionEvent: Updated', 'TransactionEvent'),
  inbound('TransactionEvent: Ended', 'TransactionEvent'),
  inbound('StatusNotification'),
  inbound('NotifyEvent'),
  inbound('SecurityEventNotification'),
  ...COMMANDS,
  inbound('DataTransfer'),
];

/** The simulator's: every charger-initiated 2.0.1 action handled, a transaction's charging states for load management. */
export const SIMULATOR_MESSAGES_201: readonly TesterMessage[] = [
  inbound('BootNotification'),
  inbound('StatusNotification'),
  inbound('Heartbeat'),
  inbound('Authorize'),
  inbound('TransactionEvent: Started', 'TransactionEvent'),
  inbound('TransactionEvent: Charging', 'TransactionEvent'),
  inbound('TransactionEvent: SuspendedEVSE', 'TransactionEvent'),
  inbound('TransactionEvent: Ended', 'TransactionEvent'),
  inbound('MeterValues'),
  inbound('DataTransfer'),
  inbound('FirmwareStatusNotification'),
  inbound('LogStatusNotification'),
  inbound('NotifyReport'),
  inbound('NotifyEvent'),
  inbound('SecurityEventNotification'),
  inbound('ReservationStatusUpdate'),
];

const wh = (value: number, context: string) => ({ value, context, measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'Wh' } });

/** Schema-valid 2.0.1 templates by entry name. The transaction's id is made of the time, so a new page starts a new one. */
export function testerTemplates201(now = new Date()): Record<string, Record<string, unknown>> {
  const timestamp = now.toISOString();
  const transactionId = `TESTER-${now.getTime().toString(36).toUpperCase()}`;
  const idToken = { idToken: 'TESTTAG', type: 'ISO14443' };
  const evse = { id: 1, connectorId: 1 };
  const event = (eventType: string, seqNo: number, triggerReason: string, info: Record<string, unknown>, meter: Record<string, unknown>[]) => ({
    eventType, timestamp, triggerReason, seqNo, transactionInfo: { transactionId, ...info }, evse, meterValue: [{ timestamp, sampledValue: meter }],
  });
  return {
    Authorize: { idToken },
    BootNotification: { reason: 'PowerUp', chargingStation: { vendorName: 'Tester', model: 'Tester' } },
    Heartbeat: {},
    MeterValues: {
      evseId: 1,
      meterValue: [{
        timestamp,
        sampledValue: [
          { value: 1000, measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'Wh' } },
          { value: 230, measurand: 'Voltage', unitOfMeasure: { unit: 'V' } },
          { value: 16, measurand: 'Current.Import', unitOfMeasure: { unit: 'A' } },
        ],
      }],
    },
    'TransactionEvent: Started': { ...event('Started', 0, 'Authorized', { chargingState: 'Charging' }, [wh(0, 'Transaction.Begin')]), idToken },
    'TransactionEvent: Updated': event('Updated', 1, 'MeterValuePeriodic', { chargingState: 'Charging' }, [wh(500, 'Sample.Periodic')]),
    'TransactionEvent: Ended': event('Ended', 2, 'StopAuthorized', { chargingState: 'EVConnected', stoppedReason: 'Local' }, [wh(1000, 'Transaction.End')]),
    StatusNotification: { timestamp, connectorStatus: 'Available', evseId: 1, connectorId: 1 },
    NotifyEvent: {
      generatedAt: timestamp,
      seqNo: 0,
      eventData: [{
        eventId: 1, timestamp, trigger: 'Delta', actualValue: 'true', eventNotificationType: 'HardWiredNotification',
        component: { name: 'Connector', evse }, variable: { name: 'Problem' },
      }],
    },
    SecurityEventNotification: { type: 'TamperDetectionActivated', timestamp, techInfo: 'Enclosure opened' },
    ...SHARED_TEMPLATES,
  };
}

/** The simulator's: a three-phase station's per-phase current and power while charging or held back. */
export function simulatorTemplates201(now = new Date()): Record<string, Record<string, unknown>> {
  const base = testerTemplates201(now);
  const timestamp = now.toISOString();
  const started = base['TransactionEvent: Started'] as { transactionInfo: { transactionId: string } };
  const phases = ['L1', 'L2', 'L3'] as const;
  const sampled = (current: number) => [
    wh(2500, 'Sample.Periodic'),
    ...phases.flatMap((phase) => [
      { value: current, context: 'Sample.Periodic', measurand: 'Current.Import', phase, unitOfMeasure: { unit: 'A' } },
      { value: current * 230, context: 'Sample.Periodic', measurand: 'Power.Active.Import', phase, unitOfMeasure: { unit: 'W' } },
      { value: 230, context: 'Sample.Periodic', measurand: 'Voltage', phase: `${phase}-N`, unitOfMeasure: { unit: 'V' } },
    ]),
    { value: 32, context: 'Sample.Periodic', measurand: 'Current.Offered', unitOfMeasure: { unit: 'A' } },
  ];
  const updated = (seqNo: number, chargingState: string, current: number) => ({
    eventType: 'Updated', timestamp, triggerReason: 'ChargingStateChanged', seqNo,
    transactionInfo: { transactionId: started.transactionInfo.transactionId, chargingState },
    evse: { id: 1, connectorId: 1 }, meterValue: [{ timestamp, sampledValue: sampled(current) }],
  });
  return {
    ...base,
    BootNotification: { reason: 'PowerUp', chargingStation: { vendorName: 'Simulator', model: 'LMS-3P-32A' } },
    StatusNotification: { timestamp, connectorStatus: 'Occupied', evseId: 1, connectorId: 1 },
    'TransactionEvent: Charging': updated(1, 'Charging', 16),
    'TransactionEvent: SuspendedEVSE': updated(2, 'SuspendedEVSE', 0),
    'TransactionEvent: Ended': { ...(base['TransactionEvent: Ended'] as object), seqNo: 3 },
    MeterValues: { evseId: 1, meterValue: [{ timestamp, sampledValue: sampled(16) }] },
    FirmwareStatusNotification: { status: 'Installed' },
    LogStatusNotification: { status: 'Uploaded' },
    NotifyReport: {
      requestId: 1, generatedAt: timestamp, seqNo: 0, tbc: false,
      reportData: [{
        component: { name: 'SmartChargingCtrlr' }, variable: { name: 'Enabled' },
        variableAttribute: [{ type: 'Actual', value: 'true', mutability: 'ReadWrite' }], variableCharacteristics: { dataType: 'boolean', supportsMonitoring: false },
      }],
    },
    ReservationStatusUpdate: { reservationId: 1, reservationUpdateStatus: 'Expired' },
  };
}
