import type { Database } from '../../db/client.ts';

/**
 * The portal's commands (OCPP 1.6 actions and payloads, which routes, load management and jobs speak)
 * as OCPP 2.0.1 messages to a 2.0.1 charger, and its answers back in the 1.6 shape the callers read.
 * The mapping is written down in docs/ocpp-201.md. Messages that exist only in 2.0.1 (the device model)
 * go as they are.
 */

/** 2.0.1 messages the portal sends as such (no 1.6 counterpart). */
export const NATIVE_201 = new Set(['GetBaseReport', 'GetVariables', 'SetVariables']);

/** The 2.0.1 message a 1.6 command becomes where the names differ (the rest keep theirs). */
const RENAMED: Record<string, string> = {
  RemoteStartTransaction: 'RequestStartTransaction', RemoteStopTransaction: 'RequestStopTransaction',
  ChangeConfiguration: 'SetVariables', GetConfiguration: 'GetVariables', GetDiagnostics: 'GetLog',
};
export const action201 = (action: string): string => RENAMED[action] ?? action;

/** A command as the 2.0.1 charger gets it, and how its answer reads in 1.6 terms. */
export interface Call201 {
  action: string;
  params: Record<string, unknown>;
  answer(result: Record<string, any>): Record<string, any>;
}

/** A command with no 2.0.1 form: refused before anything is sent, with the reason. */
export class NoCall201 extends Error {}

/**
 * Parameters a portal command carries for a 2.0.1 charger only, which the 1.6 message has no field for:
 * Reset of one EVSE (connectorId: the portal's connector, the EVSE) and ChangeAvailability of one connector
 * within an EVSE (evseConnectorId). The dispatcher checks the rest against the 1.6 schema and refuses them
 * for a 1.6 charger.
 */
const ONLY_201: Record<string, string[]> = { Reset: ['connectorId'], ChangeAvailability: ['evseConnectorId'] };

/** The command's parameters without its 2.0.1-only ones, and the names of those it had. */
export function split201(action: string, params: Record<string, unknown>): { params16: Record<string, unknown>; only201: string[] } {
  const names = (ONLY_201[action] ?? []).filter((k) => params[k] !== undefined);
  if (!names.length) return { params16: params, only201: [] };
  return { params16: Object.fromEntries(Object.entries(params).filter(([k]) => !names.includes(k))), only201: names };
}

/**
 * 1.6 configuration keys the portal writes or reads, as 2.0.1 device-model variables (OCPP 2.0.1
 * appendix 3 names). A key outside this table has no 2.0.1 form.
 */
export const CONFIG_VARIABLES: Record<string, { component: string; variable: string }> = {
  HeartbeatInterval: { component: 'OCPPCommCtrlr', variable: 'HeartbeatInterval' },
  WebSocketPingInterval: { component: 'OCPPCommCtrlr', variable: 'WebSocketPingInterval' },
  MeterValueSampleInterval: { component: 'SampledDataCtrlr', variable: 'TxUpdatedInterval' },
  MeterValuesSampledData: { component: 'SampledDataCtrlr', variable: 'TxUpdatedMeasurands' },
  StopTxnSampledData: { component: 'SampledDataCtrlr', variable: 'TxEndedMeasurands' },
  ClockAlignedDataInterval: { component: 'AlignedDataCtrlr', variable: 'Interval' },
  MeterValuesAlignedData: { component: 'AlignedDataCtrlr', variable: 'Measurands' },
  ConnectionTimeOut: { component: 'TxCtrlr', variable: 'EVConnectionTimeOut' },
  StopTransactionOnInvalidId: { component: 'TxCtrlr', variable: 'StopTxOnInvalidId' },
  StopTransactionOnEVSideDisconnect: { component: 'TxCtrlr', variable: 'StopTxOnEVSideDisconnect' },
  AuthorizeRemoteTxRequests: { component: 'AuthCtrlr', variable: 'AuthorizeRemoteStart' },
  LocalAuthorizeOffline: { component: 'AuthCtrlr', variable: 'LocalAuthorizeOffline' },
  LocalPreAuthorize: { component: 'AuthCtrlr', variable: 'LocalPreAuthorize' },
  AllowOfflineTxForUnknownId: { component: 'AuthCtrlr', variable: 'OfflineTxForUnknownIdEnabled' },
  AuthorizationCacheEnabled: { component: 'AuthCacheCtrlr', variable: 'Enabled' },
  LocalAuthListEnabled: { component: 'LocalAuthListCtrlr', variable: 'Enabled' },
  AuthorizationKey: { component: 'SecurityCtrlr', variable: 'BasicAuthPassword' },
  SecurityProfile: { component: 'SecurityCtrlr', variable: 'SecurityProfile' },
  ChargeProfileMaxStackLevel: { component: 'SmartChargingCtrlr', variable: 'ProfileStackLevel' },
  ChargingScheduleMaxPeriods: { component: 'SmartChargingCtrlr', variable: 'PeriodsPerSchedule' },
  ResetRetries: { component: 'OCPPCommCtrlr', variable: 'ResetRetries' },
};
const KEY_OF = new Map(Object.entries(CONFIG_VARIABLES).map(([key, v]) => [`${v.component}.${v.variable}`, key]));

const PURPOSE_201: Record<string, string> = { ChargePointMaxProfile: 'ChargingStationMaxProfile' };
const TRIGGER_201: Record<string, string> = { DiagnosticsStatusNotification: 'LogStatusNotification' };
/** 2.0.1 answers the portal reads in 1.6 words (UnlockStatus, ClearCache …). */
const UNLOCK_16: Record<string, string> = { Unlocked: 'Unlocked', UnlockFailed: 'UnlockFailed', OngoingAuthorizedTransaction: 'UnlockFailed', UnknownConnector: 'NotSupported' };

/** The numeric ids the portal keeps, where a 2.0.1 message needs one of its own (RequestStartTransaction). */
let remoteStartIds = Math.floor(Date.now() / 1000) % 1_000_000;

/** A 1.6 ChargingProfile as 2.0.1 ChargingProfileType; a TxProfile's transaction by the charger's own id. */
function profile201(p: Record<string, any>, transactionId?: string): Record<string, unknown> {
  const s = p.chargingSchedule;
  return {
    id: p.chargingProfileId,
    stackLevel: p.stackLevel,
    chargingProfilePurpose: PURPOSE_201[p.chargingProfilePurpose] ?? p.chargingProfilePurpose,
    chargingProfileKind: p.chargingProfileKind,
    ...(p.recurrencyKind ? { recurrencyKind: p.recurrencyKind } : {}),
    ...(p.validFrom ? { validFrom: p.validFrom } : {}),
    ...(p.validTo ? { validTo: p.validTo } : {}),
    ...(transactionId ? { transactionId } : {}),
    chargingSchedule: [{
      id: p.chargingProfileId,
      ...(s.startSchedule ? { startSchedule: s.startSchedule } : {}),
      ...(s.duration !== undefined ? { duration: s.duration } : {}),
      chargingRateUnit: s.chargingRateUnit,
      chargingSchedulePeriod: s.chargingSchedulePeriod,
      ...(s.minChargingRate !== undefined ? { minChargingRate: s.minChargingRate } : {}),
    }],
  };
}

/** The charger's transactionId of one of our tran_ids (the session knows both). */
async function ocppTransactionId(db: Database, cpId: number, tranId: unknown): Promise<string> {
  const [row] = await db.query<{ ocpp_transaction_id: string | null }>(
    `SELECT ocpp_transaction_id FROM cp_sessions WHERE cp_id = $1 AND tran_id = $2 ORDER BY session_id DESC LIMIT 1`, [cpId, tranId],
  );
  if (!row?.ocpp_transaction_id) throw new NoCall201(`Transaction ${String(tranId)} is not one of this charger's 2.0.1 transactions`);
  return row.ocpp_transaction_id;
}

const same = (r: Record<string, any>) => r;
const evse = (connectorId: unknown) => (typeof connectorId === 'number' && connectorId > 0 ? { evse: { id: connectorId } } : {});

/** The 2.0.1 message for a portal command to a 2.0.1 charger. */
export async function toCall201(db: Database, cpId: number, action: string, p: Record<string, any>): Promise<Call201> {
  if (NATIVE_201.has(action)) return { action, params: p, answer: same };
  switch (action) {
    case 'RemoteStartTransaction': {
      const remoteStartId = (remoteStartIds = (remoteStartIds % 2_000_000_000) + 1);
      return {
        action: 'RequestStartTransaction',
        params: {
          remoteStartId, idToken: { idToken: p.idTag, type: 'Central' },
          ...(p.connectorId ? { evseId: p.connectorId } : {}),
          ...(p.chargingProfile ? { chargingProfile: profile201(p.chargingProfile) } : {}),
        },
        answer: same,
      };
    }
    case 'RemoteStopTransaction':
      return { action: 'RequestStopTransaction', params: { transactionId: await ocppTransactionId(db, cpId, p.transactionId) }, answer: same };
    case 'Reset':
      // Hard: now, whatever runs; Soft: once idle, as 1.6 chargers do a soft reset after stopping their transactions.
      // With a connector: that EVSE alone (B11/B12); its transaction ends, or the reset waits for it (Scheduled).
      return { action: 'Reset', params: { type: p.type === 'Hard' ? 'Immediate' : 'OnIdle', ...(p.connectorId > 0 ? { evseId: p.connectorId } : {}) }, answer: same };
    case 'UnlockConnector':
      return {
        action: 'UnlockConnector', params: { evseId: p.connectorId, connectorId: 1 },
        // The station's own word stays beside the 1.6 one (OngoingAuthorizedTransaction says why it failed).
        answer: (r) => ({ ...r, status: UNLOCK_16[r.status] ?? r.status, ...(UNLOCK_16[r.status] !== r.status ? { chargerStatus: r.status } : {}) }),
      };
    case 'ChangeAvailability':
      return {
        action: 'ChangeAvailability',
        params: {
          operationalStatus: p.type,
          // evseConnectorId: one connector of the EVSE (G03), else the whole EVSE (or the station for connector 0).
          ...(p.connectorId > 0 && p.evseConnectorId > 0 ? { evse: { id: p.connectorId, connectorId: p.evseConnectorId } } : evse(p.connectorId)),
        },
        answer: same,
      };
    case 'TriggerMessage': {
      const requestedMessage = TRIGGER_201[p.requestedMessage] ?? p.requestedMessage;
      // A StatusNotification is a connector's: the EVSE's one connector is named (2.0.1 F06.FR.13). The whole
      // station's is asked EVSE by EVSE by the route (v201/evse-targets.ts); without any EVSE known it goes without.
      const target = requestedMessage === 'StatusNotification' && p.connectorId > 0 ? { evse: { id: p.connectorId, connectorId: 1 } } : evse(p.connectorId);
      return { action: 'TriggerMessage', params: { requestedMessage, ...target }, answer: same };
    }
    case 'SetChargingProfile': {
      const cp = p.csChargingProfiles;
      const tx = cp.transactionId !== undefined ? await ocppTransactionId(db, cpId, cp.transactionId) : undefined;
      return { action: 'SetChargingProfile', params: { evseId: p.connectorId, chargingProfile: profile201(cp, tx) }, answer: same };
    }
    case 'ClearChargingProfile': {
      const criteria = {
        ...(p.connectorId !== undefined ? { evseId: p.connectorId } : {}),
        ...(p.chargingProfilePurpose ? { chargingProfilePurpose: PURPOSE_201[p.chargingProfilePurpose] ?? p.chargingProfilePurpose } : {}),
        ...(p.stackLevel !== undefined ? { stackLevel: p.stackLevel } : {}),
      };
      return {
        action: 'ClearChargingProfile',
        params: { ...(p.id !== undefined ? { chargingProfileId: p.id } : {}), ...(Object.keys(criteria).length ? { chargingProfileCriteria: criteria } : {}) },
        answer: same,
      };
    }
    case 'GetCompositeSchedule':
      return {
        action: 'GetCompositeSchedule',
        params: { evseId: p.connectorId, duration: p.duration, ...(p.chargingRateUnit ? { chargingRateUnit: p.chargingRateUnit } : {}) },
        answer: ({ status, schedule }) => (schedule
          ? {
            status, connectorId: schedule.evseId, scheduleStart: schedule.scheduleStart,
            chargingSchedule: { duration: schedule.duration, startSchedule: schedule.scheduleStart, chargingRateUnit: schedule.chargingRateUnit, chargingSchedulePeriod: schedule.chargingSchedulePeriod },
          }
          : { status }),
      };
    case 'ChangeConfiguration': {
      const v = CONFIG_VARIABLES[p.key];
      if (!v) throw new NoCall201(`${p.key} has no OCPP 2.0.1 variable: set it in the charger's device model`);
      return {
        action: 'SetVariables',
        params: { setVariableData: [{ component: { name: v.component }, variable: { name: v.variable }, attributeValue: String(p.value) }] },
        // SetVariableStatusEnumType: Accepted, Rejected, RebootRequired as in 1.6; UnknownComponent/Variable, NotSupportedAttributeType are 1.6's NotSupported.
        answer: ({ setVariableResult: [r] }) => ({ status: ['Accepted', 'Rejected', 'RebootRequired'].includes(r?.attributeStatus) ? r.attributeStatus : 'NotSupported' }),
      };
    }
    case 'GetConfiguration': {
      const keys: string[] = p.key?.length ? p.key : Object.keys(CONFIG_VARIABLES).filter((k) => k !== 'AuthorizationKey');
      const known = keys.filter((k) => CONFIG_VARIABLES[k]);
      const getVariableData = known.map((k) => ({ component: { name: CONFIG_VARIABLES[k].component }, variable: { name: CONFIG_VARIABLES[k].variable } }));
      if (!getVariableData.length) throw new NoCall201('None of these keys has an OCPP 2.0.1 variable: read the charger\'s device model');
      return {
        action: 'GetVariables',
        params: { getVariableData },
        answer: ({ getVariableResult }) => {
          const configurationKey: { key: string; readonly: boolean; value?: string }[] = [];
          const unknownKey = keys.filter((k) => !CONFIG_VARIABLES[k]);
          for (const r of getVariableResult as any[]) {
            const key = KEY_OF.get(`${r.component.name}.${r.variable.name}`) ?? `${r.component.name}.${r.variable.name}`;
            if (r.attributeStatus === 'Accepted') configurationKey.push({ key, readonly: false, ...(r.attributeValue !== undefined ? { value: r.attributeValue } : {}) });
            else unknownKey.push(key);
          }
          return { configurationKey, ...(unknownKey.length ? { unknownKey } : {}) };
        },
      };
    }
    case 'ClearCache':
    case 'DataTransfer':
    case 'CancelReservation':
      return { action, params: p, answer: same };
    case 'GetLocalListVersion':
      return { action, params: p, answer: ({ versionNumber }) => ({ listVersion: versionNumber }) };
    case 'GetDiagnostics':
      return {
        action: 'GetLog',
        params: {
          logType: 'DiagnosticsLog', requestId: nextRequestId(),
          log: { remoteLocation: p.location, ...(p.startTime ? { oldestTimestamp: p.startTime } : {}), ...(p.stopTime ? { latestTimestamp: p.stopTime } : {}) },
          ...(p.retries !== undefined ? { retries: p.retries } : {}), ...(p.retryInterval !== undefined ? { retryInterval: p.retryInterval } : {}),
        },
        // 1.6 answers with the file name alone; a 2.0.1 refusal stays a refusal (AcceptedCanceled: this one runs, an older stopped).
        answer: ({ status, filename }) => (status === 'Rejected' ? { status } : filename ? { fileName: filename } : {}),
      };
    case 'UpdateFirmware':
      return {
        action: 'UpdateFirmware',
        params: { requestId: nextRequestId(), firmware: { location: p.location, retrieveDateTime: p.retrieveDate }, ...(p.retries !== undefined ? { retries: p.retries } : {}), ...(p.retryInterval !== undefined ? { retryInterval: p.retryInterval } : {}) },
        // 1.6 has no answer payload; a refusal still shows as the status the charger gave. AcceptedCanceled is
        // accepted (an update in progress was stopped for this one).
        answer: (r) => (r.status === 'Accepted' || r.status === 'AcceptedCanceled' ? {} : r),
      };
    case 'ReserveNow':
      return {
        action: 'ReserveNow',
        params: {
          // The portal reserves for a card: the station matches the token its reader gives (type and value).
          id: p.reservationId, expiryDateTime: p.expiryDate, idToken: { idToken: p.idTag, type: 'ISO14443' },
          ...(p.connectorId ? { evseId: p.connectorId } : {}),
          ...(p.parentIdTag ? { groupIdToken: { idToken: p.parentIdTag, type: 'Central' } } : {}),
        },
        answer: same,
      };
    case 'SendLocalList':
      return {
        action: 'SendLocalList',
        params: {
          versionNumber: p.listVersion, updateType: p.updateType,
          // 2.0.1 allows no empty list (minItems 1): an empty Full list, which clears it, goes without one.
          ...(p.localAuthorizationList?.length ? {
            localAuthorizationList: (p.localAuthorizationList as any[]).map((e) => ({
              idToken: { idToken: e.idTag, type: 'ISO14443' },
              ...(e.idTagInfo ? {
                idTokenInfo: {
                  status: e.idTagInfo.status,
                  ...(e.idTagInfo.expiryDate ? { cacheExpiryDateTime: e.idTagInfo.expiryDate } : {}),
                  ...(e.idTagInfo.parentIdTag ? { groupIdToken: { idToken: e.idTagInfo.parentIdTag, type: 'Central' } } : {}),
                },
              } : {}),
            })),
          } : {}),
        },
        answer: same,
      };
    default:
      throw new NoCall201(`${action} has no OCPP 2.0.1 form`);
  }
}

/** requestId of a GetLog or UpdateFirmware: the charger names it in its status notifications. */
let requestIds = Math.floor(Date.now() / 1000) % 1_000_000;
const nextRequestId = () => (requestIds = (requestIds % 2_000_000_000) + 1);
