/**
 * What the raw chargers (ocpp-raw-charger.ts) say in each OCPP version the bench speaks: the subprotocol
 * offered, the boot, the transaction start and the metering frame repeated on the hot path. OCPP 2.0.1's
 * counterpart of a 1.6 MeterValues is a TransactionEvent Updated (triggerReason MeterValuePeriodic) with
 * the same three readings, after one TransactionEvent Started per charger.
 */
import { option } from './args.ts';

export const PROTOCOLS = ['ocpp1.6', 'ocpp2.0.1'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
/** A transaction as the charger names it: the server's integer in 1.6, the charger's own string in 2.0.1. */
export type TxId = number | string;

/** --protocol ocpp1.6 (the default) or ocpp2.0.1; anything else stops the bench with a clear message. */
export function protocolOption(): Protocol {
  const value = option('protocol') || 'ocpp1.6';
  if (!(PROTOCOLS as readonly string[]).includes(value)) {
    console.error(`--protocol must be one of ${PROTOCOLS.join(', ')}, not '${value}'`);
    process.exit(2);
  }
  return value as Protocol;
}

export function bootPayload(protocol: Protocol): Record<string, unknown> {
  return protocol === 'ocpp2.0.1'
    ? { reason: 'PowerUp', chargingStation: { model: 'Raw', vendorName: 'Bench' } }
    : { chargePointVendor: 'Bench', chargePointModel: 'Raw' };
}

/** The start of a charger's transaction on connector (EVSE) 1 with the bench's card, and how its answer reads. */
export function startCall(protocol: Protocol, cpNo: string): { action: string; payload: Record<string, unknown>; txId: (answer: any) => TxId } {
  const timestamp = new Date().toISOString();
  if (protocol === 'ocpp1.6') {
    return {
      action: 'StartTransaction',
      payload: { connectorId: 1, idTag: 'BENCH', meterStart: 0, timestamp },
      txId: (answer) => answer.transactionId as number,
    };
  }
  const transactionId = `bench-${cpNo}`;
  return {
    action: 'TransactionEvent',
    payload: {
      eventType: 'Started', timestamp, triggerReason: 'Authorized', seqNo: 0,
      transactionInfo: { transactionId, chargingState: 'Charging' },
      idToken: { idToken: 'BENCH', type: 'ISO14443' }, evse: { id: 1, connectorId: 1 },
      meterValue: [{ timestamp, sampledValue: [{ value: 0, measurand: 'Energy.Active.Import.Register', unitOfMeasure: { unit: 'Wh' } }] }],
    },
    txId: (answer) => {
      if (answer.idTokenInfo?.status !== 'Accepted') throw new Error(`${cpNo}: start ${JSON.stringify(answer)}`);
      return transactionId;
    },
  };
}

/** The last seqNo sent for each 2.0.1 transaction: it counts on across the bench's turns, as a station's does. */
const seqNos = new Map<string, number>();

/**
 * The metering CALL of one charger's transaction as a template around what changes (message id, timestamp,
 * energy; and in 2.0.1 the seqNo, which counts on from the Started's 0): no JSON.stringify per message.
 */
export function meterFrame(protocol: Protocol, tx: TxId): (id: string, ts: string, wh: number) => string {
  if (protocol === 'ocpp1.6') {
    const head = `","MeterValues",{"connectorId":1,"transactionId":${tx},"meterValue":[{"timestamp":"`;
    const mid = '","sampledValue":[{"value":"';
    const tail = '","measurand":"Energy.Active.Import.Register","unit":"Wh"},{"value":"230.1","measurand":"Voltage","unit":"V"},' +
      '{"value":"16.0","measurand":"Current.Import","unit":"A"}]}]}]';
    return (id, ts, wh) => '[2,"' + id + head + ts + mid + wh + tail;
  }
  const key = String(tx);
  const head = '","TransactionEvent",{"eventType":"Updated","timestamp":"';
  const seq = '","triggerReason":"MeterValuePeriodic","seqNo":';
  const info = `,"transactionInfo":{"transactionId":${JSON.stringify(String(tx))}},"evse":{"id":1,"connectorId":1},"meterValue":[{"timestamp":"`;
  const mid = '","sampledValue":[{"value":';
  const tail = ',"measurand":"Energy.Active.Import.Register","unitOfMeasure":{"unit":"Wh"}},' +
    '{"value":230.1,"measurand":"Voltage","unitOfMeasure":{"unit":"V"}},{"value":16,"measurand":"Current.Import","unitOfMeasure":{"unit":"A"}}]}]}]';
  return (id, ts, wh) => {
    const seqNo = (seqNos.get(key) ?? 0) + 1;
    seqNos.set(key, seqNo);
    return '[2,"' + id + head + ts + seq + seqNo + info + ts + mid + wh + tail;
  };
}
