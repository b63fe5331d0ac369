import type { MeterValue, SampledValue } from '../meter-values.ts';

/**
 * OCPP 2.0.1 vocabulary as the portal's (1.6-shaped) model takes it; the mapping is written down in
 * docs/ocpp-201.md. The portal's connector N is the charger's EVSE N.
 */

/** A 2.0.1 SampledValueType: a number, its unit and power of ten in unitOfMeasure. */
interface SampledValue201 {
  value: number;
  context?: string;
  measurand?: string;
  phase?: string;
  location?: string;
  unitOfMeasure?: { unit?: string; multiplier?: number };
}
export interface MeterValue201 { timestamp: string; sampledValue: SampledValue201[] }

/** A 2.0.1 MeterValue as 1.6 writes it (value a string, the multiplier applied), so one reader serves both. */
export function meterValue16(mv: MeterValue201): MeterValue {
  return {
    timestamp: mv.timestamp,
    sampledValue: mv.sampledValue.map((s): SampledValue => {
      const multiplier = s.unitOfMeasure?.multiplier ?? 0;
      return {
        value: String(multiplier ? s.value * 10 ** multiplier : s.value),
        ...(s.context ? { context: s.context } : {}),
        ...(s.measurand ? { measurand: s.measurand } : {}),
        ...(s.phase ? { phase: s.phase } : {}),
        ...(s.location ? { location: s.location } : {}),
        ...(s.unitOfMeasure?.unit ? { unit: s.unitOfMeasure.unit } : {}),
      };
    }),
  };
}

/**
 * ReasonEnumType of a TransactionEvent Ended → the portal's stop reasons (1.6 Reason); the original stays in the log.
 * A master pass is a card shown at the station (Local); limits, faults and timeouts are Other.
 */
const STOP_REASON: Record<string, string> = {
  DeAuthorized: 'DeAuthorized', EmergencyStop: 'EmergencyStop', EVDisconnected: 'EVDisconnected', ImmediateReset: 'HardReset',
  Local: 'Local', LocalOutOfCredit: 'Local', MasterPass: 'Local', PowerLoss: 'PowerLoss', Reboot: 'Reboot', Remote: 'Remote',
  StoppedByEV: 'EVDisconnected',
};
export const stopReason16 = (reason: string | undefined): string => (reason ? STOP_REASON[reason] ?? 'Other' : 'Local');

/**
 * The portal's connector status (1.6 ChargePointStatus) from 2.0.1's two halves: connectorStatus
 * (StatusNotification: is a car there) and chargingState (TransactionEvent: is it charging).
 */
export function statusFromChargingState(chargingState: string | undefined): string | null {
  switch (chargingState) {
    case 'Charging': case 'SuspendedEV': case 'SuspendedEVSE': return chargingState;
    case 'EVConnected': return 'Preparing';
    default: return null; // Idle, or not said: the connector status tells
  }
}

/** The states of an occupied connector the 2.0.1 connectorStatus Occupied leaves as they are. */
export const OCCUPIED = new Set(['Preparing', 'Charging', 'SuspendedEV', 'SuspendedEVSE', 'Finishing']);

/** FirmwareStatusEnumType → 1.6 FirmwareStatus, the 2.0.1-only steps as the 1.6 step they belong to. */
const FIRMWARE_STATUS: Record<string, string> = {
  DownloadScheduled: 'Downloading', DownloadPaused: 'Downloading', SignatureVerified: 'Downloaded',
  InstallRebooting: 'Installing', InstallScheduled: 'Installing', InstallVerificationFailed: 'InstallationFailed',
  InvalidSignature: 'InstallationFailed',
};
export const firmwareStatus16 = (status: string): string => FIRMWARE_STATUS[status] ?? status;

/** UploadLogStatusEnumType → 1.6 DiagnosticsStatus. */
const LOG_STATUS: Record<string, string> = {
  Uploaded: 'Uploaded', Uploading: 'Uploading', Idle: 'Idle', AcceptedCanceled: 'Idle',
};
export const logStatus16 = (status: string): string => LOG_STATUS[status] ?? 'UploadFailed';
