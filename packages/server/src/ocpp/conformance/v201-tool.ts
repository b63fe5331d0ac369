import type { RPCClient } from 'ocpp-rpc';

/**
 * The OCTT 2.0.1 tool's side of the conformance tests: the messages a station sends in the cases (boot,
 * connector status, a transaction's Started and Ended events), over a strict ocpp-rpc 2.0.1 client.
 * Test support only: the cases script the rest themselves.
 */
export interface Tool201 {
  boot(): Promise<unknown>;
  status(evseId: number, connectorStatus: 'Available' | 'Occupied' | 'Reserved' | 'Unavailable' | 'Faulted'): Promise<unknown>;
  /** TransactionEvent Started on the EVSE, Charging, with its meter start. */
  started(evseId: number, transactionId: string, opts?: { idToken?: { idToken: string; type: string }; remoteStartId?: number; reservationId?: number }): Promise<any>;
  /** TransactionEvent Ended with the stoppedReason, the car still plugged in. */
  ended(evseId: number, transactionId: string, stoppedReason: string): Promise<any>;
}

export function tool201(charger: RPCClient): Tool201 {
  let seqNo = 0;
  const now = () => new Date().toISOString();
  const energy = (value: number, context: string) => [{
    timestamp: now(), sampledValue: [{ value, context, measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'Wh' } }],
  }];
  return {
    boot: () => charger.call('BootNotification', { reason: 'PowerUp', chargingStation: { model: 'Tool', vendorName: 'OCTT', firmwareVersion: '1.0.0' } }),
    status: (evseId, connectorStatus) => charger.call('StatusNotification', { timestamp: now(), connectorStatus, evseId, connectorId: 1 }),
    started: (evseId, transactionId, opts = {}) => charger.call('TransactionEvent', {
      eventType: 'Started', timestamp: now(), triggerReason: opts.remoteStartId !== undefined ? 'RemoteStart' : 'Authorized', seqNo: seqNo++,
      transactionInfo: { transactionId, chargingState: 'Charging', ...(opts.remoteStartId !== undefined ? { remoteStartId: opts.remoteStartId } : {}) },
      evse: { id: evseId, connectorId: 1 },
      idToken: opts.idToken ?? { idToken: 'OCTT-TAG', type: 'ISO14443' },
      ...(opts.reservationId !== undefined ? { reservationId: opts.reservationId } : {}),
      meterValue: energy(0, 'Transaction.Begin'),
    }),
    ended: (evseId, transactionId, stoppedReason) => charger.call('TransactionEvent', {
      eventType: 'Ended', timestamp: now(), triggerReason: stoppedReason === 'Remote' ? 'RemoteStop' : 'StopAuthorized', seqNo: seqNo++,
      transactionInfo: { transactionId, stoppedReason, chargingState: 'EVConnected' },
      evse: { id: evseId, connectorId: 1 },
      meterValue: energy(100, 'Transaction.End'),
    }),
  };
}
