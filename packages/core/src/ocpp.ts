/**
 * OCPP 1.6-J request types as stored in cp_requests.request_type. The ids are part of the data:
 * never renumber. The cp_requests list's default filter (spec part 1 §2) is
 * DEFAULT_REQUEST_TYPES, so the ids outside it are the noisy ones: Heartbeat, MeterValues, the
 * charging profiles load management sends all day, and configuration / diagnostics traffic.
 */
export type OcppDirection = 'in' | 'out';

export interface OcppRequestType {
  id: number;
  action: string;
  /** in: sent by the charger; out: a command the central system sends. */
  direction: OcppDirection;
  /** The OCPP version the message belongs to (absent: 1.6). */
  protocol?: '2.0.1';
}

/** The OCPP versions a charger may connect with (WebSocket subprotocols), the newest first. */
export const OCPP_PROTOCOLS = ['ocpp2.0.1', 'ocpp1.6'] as const;
export type OcppProtocol = (typeof OCPP_PROTOCOLS)[number];

export const OCPP_REQUEST_TYPES: readonly OcppRequestType[] = [
  { id: 1, action: 'BootNotification', direction: 'in' },
  { id: 2, action: 'StatusNotification', direction: 'in' },
  { id: 3, action: 'Authorize', direction: 'in' },
  { id: 4, action: 'StartTransaction', direction: 'in' },
  { id: 5, action: 'StopTransaction', direction: 'in' },
  { id: 6, action: 'Heartbeat', direction: 'in' },
  { id: 7, action: 'DataTransfer', direction: 'in' },
  { id: 8, action: 'DiagnosticsStatusNotification', direction: 'in' },
  { id: 9, action: 'FirmwareStatusNotification', direction: 'in' },
  { id: 10, action: 'RemoteStartTransaction', direction: 'out' },
  { id: 11, action: 'MeterValues', direction: 'in' },
  { id: 12, action: 'SetChargingProfile', direction: 'out' },
  { id: 13, action: 'ClearChargingProfile', direction: 'out' },
  { id: 14, action: 'RemoteStopTransaction', direction: 'out' },
  { id: 15, action: 'UnlockConnector', direction: 'out' },
  { id: 16, action: 'Reset', direction: 'out' },
  { id: 17, action: 'ChangeAvailability', direction: 'out' },
  { id: 18, action: 'GetDiagnostics', direction: 'out' },
  { id: 19, action: 'TriggerMessage', direction: 'out' },
  { id: 20, action: 'ChangeConfiguration', direction: 'out' },
  { id: 21, action: 'GetConfiguration', direction: 'out' },
  { id: 22, action: 'DataTransfer', direction: 'out' },
  { id: 23, action: 'GetCompositeSchedule', direction: 'out' },
  { id: 24, action: 'ClearCache', direction: 'out' },
  { id: 25, action: 'UpdateFirmware', direction: 'out' },
  { id: 26, action: 'ReserveNow', direction: 'out' },
  { id: 27, action: 'CancelReservation', direction: 'out' },
  { id: 28, action: 'GetLocalListVersion', direction: 'out' },
  { id: 29, action: 'SendLocalList', direction: 'out' },
  // OCPP 2.0.1 (issue 31): its own ids, so the log tells the versions apart.
  ...(['BootNotification', 'StatusNotification', 'Authorize', 'TransactionEvent', 'Heartbeat', 'MeterValues', 'DataTransfer',
    'FirmwareStatusNotification', 'LogStatusNotification', 'NotifyReport', 'SecurityEventNotification', 'NotifyEvent',
    'ReservationStatusUpdate'] as const)
    .map((action, i) => ({ id: 101 + i, action, direction: 'in' as const, protocol: '2.0.1' as const })),
  ...(['RequestStartTransaction', 'RequestStopTransaction', 'UnlockConnector', 'Reset', 'ChangeAvailability', 'TriggerMessage',
    'SetChargingProfile', 'ClearChargingProfile', 'GetCompositeSchedule', 'GetVariables', 'SetVariables', 'GetBaseReport',
    'DataTransfer', 'ClearCache', 'UpdateFirmware', 'GetLog', 'ReserveNow', 'CancelReservation', 'GetLocalListVersion',
    'SendLocalList'] as const)
    .map((action, i) => ({ id: 121 + i, action, direction: 'out' as const, protocol: '2.0.1' as const })),
];

/** Default request_type filter of the cp_requests list (spec part 1 §2). */
export const DEFAULT_REQUEST_TYPES = [
  1, 2, 3, 4, 5, 7, 8, 9, 10, 14, 15, 16, 17,
  // Their OCPP 2.0.1 counterparts: BootNotification … LogStatusNotification, RequestStart/StopTransaction, UnlockConnector,
  // Reset, ChangeAvailability (TransactionEvent carries starts and stops, so it is shown with its meter updates).
  101, 102, 103, 104, 107, 108, 109, 121, 122, 123, 124, 125,
];

/** The request-type id of an action in a direction, undefined for an action we do not know. */
export function requestTypeId(action: string, direction: OcppDirection, protocol: OcppProtocol = 'ocpp1.6'): number | undefined {
  const version = protocol === 'ocpp2.0.1' ? '2.0.1' : undefined;
  return OCPP_REQUEST_TYPES.find((t) => t.action === action && t.direction === direction && t.protocol === version)?.id;
}

/**
 * Reasons a StopTransaction may give (OCPP 1.6 §7.41), for the stop_reason filter, then the central
 * system's own for a session it closed without a StopTransaction (ocpp/unconfirmed.ts in the server).
 */
export const STOP_REASONS = [
  'EmergencyStop', 'EVDisconnected', 'HardReset', 'Local', 'Other', 'PowerLoss', 'Reboot', 'Remote', 'SoftReset',
  'UnlockCommand', 'DeAuthorized', 'ClosedByOperator', 'ClosedUnconfirmed',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/**
 * Why a running session is unconfirmed: its connector reported Available, or its charger booted,
 * after it started and without its StopTransaction.
 */
export const UNCONFIRMED_REASONS = ['Available', 'Boot'] as const;

/** The auto-close of unconfirmed sessions (app_config unconfirmed_auto_close_hours): hours after the flag; 0 is off. */
export const UNCONFIRMED_AUTO_CLOSE_HOURS = ['0', '1', '2', '4', '8', '12', '24', '48', '72', '168'] as const;
