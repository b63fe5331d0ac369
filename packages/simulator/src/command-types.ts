import type { ChargingProfile, ClearFilter } from './charging-profiles.ts';
import type { Configuration } from './configuration.ts';
import type { UpdateFirmwareRequest } from './firmware.ts';
import type { IdTagInfo, LocalAuthList } from './local-list.ts';
import type { Reservations } from './reservations.ts';
import type { ConnectorStatus, SampledValue } from './connector.ts';

/**
 * Types shared by the charger (charger.ts), its link (link.ts) and the command answers
 * (commands.ts), so that none of them imports another in a loop.
 */

/** The answer to a command, and what the charger does once the answer is out. */
export interface CommandOutcome {
  result: Record<string, unknown>;
  after?: () => Promise<void>;
}

export type StopReason = 'Local' | 'Remote' | 'EVDisconnected' | 'HardReset' | 'SoftReset' | 'UnlockCommand' | 'DeAuthorized' | 'PowerLoss' | 'Reboot' | 'Other' | 'EmergencyStop';

export type { IdTagInfo } from './local-list.ts';

/** What the answers to the central system's commands act on: SimulatedCharger implements it. */
export interface CommandTarget {
  readonly cpNo: string;
  readonly config: Configuration;
  readonly vendor: string;
  readonly connectorCount: number;
  readonly diagnosticsUploadMs: number;
  connectorStatus(connectorId: number): ConnectorStatus;
  transactionId(connectorId: number): number | undefined;
  connectorOf(transactionId: number): number | undefined;
  plugIn(connectorId: number): Promise<void>;
  unplug(connectorId: number): Promise<void>;
  authorize(idTag: string): Promise<IdTagInfo>;
  startTransaction(connectorId: number, idTag: string): Promise<number>;
  stopTransaction(connectorId: number, reason?: StopReason): Promise<void>;
  setChargingProfile(connectorId: number, profile: ChargingProfile): 'Accepted' | 'Rejected';
  clearChargingProfile(filter: ClearFilter): 'Accepted' | 'Unknown';
  compositeSchedule(connectorId: number, durationSec: number, unit?: 'A' | 'W'): { startPeriod: number; limit: number }[] | null;
  changeAvailability(connectorId: number, type: 'Operative' | 'Inoperative'): 'Accepted' | 'Rejected' | 'Scheduled';
  reboot(type: 'Hard' | 'Soft'): Promise<void>;
  updateFirmware(params: UpdateFirmwareRequest): Promise<void>;
  clearIdTagCache(): void;
  readonly localList: LocalAuthList;
  readonly reservations: Reservations;
  changePassword(hex: string): 'Accepted' | 'Rejected';
  bootNotification(): Promise<unknown>;
  heartbeat(): Promise<unknown>;
  sendStatus(connectorId: number): Promise<void>;
  sendMeterValues(connectorId: number, context?: SampledValue['context']): Promise<void>;
  sendDiagnosticsStatus(status?: 'Idle' | 'Uploading' | 'Uploaded' | 'UploadFailed'): Promise<void>;
  sendFirmwareStatus(): Promise<void>;
  sleep(ms: number): Promise<void>;
}
