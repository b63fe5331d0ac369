import type { ChargingProfile, ProfilePurpose } from '../charging-profiles.ts';
import type { ConnectorStatus, SampledValue } from '../connector.ts';

/** OCPP 2.0.1 vocabulary, and its mapping from the simulator's shared (1.6-shaped) connector model. */

export type ConnectorStatus201 = 'Available' | 'Occupied' | 'Reserved' | 'Unavailable' | 'Faulted';
export type ChargingState = 'Charging' | 'EVConnected' | 'SuspendedEV' | 'SuspendedEVSE' | 'Idle';
/** TransactionEvent stoppedReason (ReasonEnumType), the subset the simulator gives. */
export type StopReason201 = 'Local' | 'Remote' | 'EVDisconnected' | 'ImmediateReset' | 'DeAuthorized' | 'Reboot' | 'PowerLoss' | 'Other';
export type TriggerReason =
  | 'Authorized' | 'CablePluggedIn' | 'ChargingRateChanged' | 'ChargingStateChanged' | 'Deauthorized' | 'EVDeparted'
  | 'MeterValuePeriodic' | 'RemoteStart' | 'RemoteStop' | 'ResetCommand' | 'StopAuthorized' | 'Trigger' | 'AbnormalCondition';

/** What Authorize and TransactionEvent answers say of an idToken (IdTokenInfoType, the part used). */
export interface IdTokenInfo { status: string; cacheExpiryDateTime?: string; groupIdToken?: { idToken: string; type: string } }

/** The 2.0.1 connectorStatus: the EV's presence, not the charging state (that goes in TransactionEvent). */
export function connectorStatus201(status: ConnectorStatus): ConnectorStatus201 {
  switch (status) {
    case 'Available': case 'Reserved': case 'Unavailable': case 'Faulted': return status;
    default: return 'Occupied';
  }
}

export function chargingState(status: ConnectorStatus): ChargingState {
  switch (status) {
    case 'Charging': case 'SuspendedEV': case 'SuspendedEVSE': return status;
    case 'Available': case 'Reserved': case 'Unavailable': case 'Faulted': return 'Idle';
    default: return 'EVConnected';
  }
}

/** The triggerReason of the Ended event for each stoppedReason. */
export const STOP_TRIGGER: Record<StopReason201, TriggerReason> = {
  Local: 'StopAuthorized', Remote: 'RemoteStop', EVDisconnected: 'EVDeparted', ImmediateReset: 'ResetCommand',
  DeAuthorized: 'Deauthorized', Reboot: 'ResetCommand', PowerLoss: 'AbnormalCondition', Other: 'AbnormalCondition',
};

/** A 1.6-shaped sample as a 2.0.1 SampledValueType (numeric value, unitOfMeasure). */
export function sampledValue201({ value, context, measurand, unit, location }: SampledValue): Record<string, unknown> {
  return { value: Number(value), context, measurand, ...(location ? { location } : {}), unitOfMeasure: { unit } };
}

/** A 2.0.1 ChargingProfileType (SetChargingProfile, RequestStartTransaction). */
export interface ChargingProfile201 {
  id: number;
  stackLevel: number;
  chargingProfilePurpose: 'ChargingStationMaxProfile' | 'TxDefaultProfile' | 'TxProfile' | 'ChargingStationExternalConstraints';
  chargingProfileKind: ChargingProfile['chargingProfileKind'];
  recurrencyKind?: 'Daily' | 'Weekly';
  validFrom?: string;
  validTo?: string;
  transactionId?: string;
  chargingSchedule: (ChargingProfile['chargingSchedule'] & { id: number })[];
}

export function purpose16(purpose: ChargingProfile201['chargingProfilePurpose']): ProfilePurpose | undefined {
  if (purpose === 'ChargingStationMaxProfile') return 'ChargePointMaxProfile';
  return purpose === 'ChargingStationExternalConstraints' ? undefined : purpose;
}

/**
 * The profile in the shared engine's shape (charging-profiles.ts), whose stacking both versions obey; undefined for
 * what this station does not take (external constraints, more than one schedule).
 */
export function toEngineProfile(p: ChargingProfile201): ChargingProfile | undefined {
  const purpose = purpose16(p.chargingProfilePurpose);
  if (!purpose || p.chargingSchedule.length !== 1) return undefined;
  const { id: _scheduleId, ...schedule } = p.chargingSchedule[0];
  return {
    chargingProfileId: p.id, stackLevel: p.stackLevel, chargingProfilePurpose: purpose, chargingProfileKind: p.chargingProfileKind,
    ...(p.recurrencyKind ? { recurrencyKind: p.recurrencyKind } : {}),
    ...(p.validFrom ? { validFrom: p.validFrom } : {}), ...(p.validTo ? { validTo: p.validTo } : {}),
    ...(p.transactionId !== undefined ? { transactionId: p.transactionId } : {}),
    chargingSchedule: schedule,
  };
}
