/**
 * The charger's configuration keys (OCPP 1.6 §9: Core and Smart Charging profiles), read by
 * GetConfiguration and written by ChangeConfiguration.
 */

type Kind = 'int' | 'bool' | 'csl';

interface KeyDef {
  kind: Kind;
  readonly: boolean;
  value: string;
  /** Allowed members of a comma-separated list. */
  members?: readonly string[];
}

export const MEASURANDS = [
  'Energy.Active.Import.Register', 'Power.Active.Import', 'Current.Import', 'Current.Offered', 'Voltage', 'SoC',
] as const;
export type Measurand = (typeof MEASURANDS)[number];

export type ChangeResult = 'Accepted' | 'Rejected' | 'RebootRequired' | 'NotSupported';

export interface KeyValue {
  key: string;
  readonly: boolean;
  value?: string;
}

export class Configuration {
  private readonly keys = new Map<string, KeyDef>();
  private readonly listeners: Array<(key: string, value: string) => void> = [];

  constructor(init: { connectors: number; heartbeatIntervalSec: number; meterIntervalSec: number }) {
    const rw = (kind: Kind, value: string | number | boolean, members?: readonly string[]): KeyDef =>
      ({ kind, readonly: false, value: String(value), members });
    const ro = (kind: Kind, value: string | number | boolean): KeyDef => ({ kind, readonly: true, value: String(value) });
    const entries: Record<string, KeyDef> = {
      AllowOfflineTxForUnknownId: rw('bool', false),
      AuthorizationCacheEnabled: rw('bool', true),
      AuthorizeRemoteTxRequests: rw('bool', false),
      ClockAlignedDataInterval: rw('int', 0),
      ConnectionTimeOut: rw('int', 60),
      GetConfigurationMaxKeys: ro('int', 50),
      HeartbeatInterval: rw('int', init.heartbeatIntervalSec),
      LocalAuthorizeOffline: rw('bool', true),
      // Local Auth List Management (local-list.ts): false answers SendLocalList NotSupported.
      LocalAuthListEnabled: rw('bool', true),
      LocalAuthListMaxLength: ro('int', 1000),
      SendLocalListMaxLength: ro('int', 1000),
      LocalPreAuthorize: rw('bool', false),
      MeterValuesAlignedData: rw('csl', 'Energy.Active.Import.Register', MEASURANDS),
      MeterValuesSampledData: rw('csl', 'Energy.Active.Import.Register,Power.Active.Import,Current.Import,Voltage,SoC', MEASURANDS),
      MeterValueSampleInterval: rw('int', init.meterIntervalSec),
      NumberOfConnectors: ro('int', init.connectors),
      ResetRetries: rw('int', 3),
      StopTransactionOnEVSideDisconnect: rw('bool', true),
      StopTransactionOnInvalidId: rw('bool', true),
      StopTxnAlignedData: rw('csl', '', MEASURANDS),
      StopTxnSampledData: rw('csl', 'Energy.Active.Import.Register', MEASURANDS),
      SupportedFeatureProfiles: ro('csl', 'Core,FirmwareManagement,RemoteTrigger,Reservation,SmartCharging'),
      // Reservation profile (reservations.ts): false answers a ReserveNow for connector 0 Rejected.
      ReserveConnectorZeroSupported: rw('bool', true),
      TransactionMessageAttempts: rw('int', 3),
      TransactionMessageRetryInterval: rw('int', 10),
      UnlockConnectorOnEVSideDisconnect: rw('bool', true),
      WebSocketPingInterval: rw('int', 30),
      ChargeProfileMaxStackLevel: ro('int', 10),
      ChargingScheduleAllowedChargingRateUnit: ro('csl', 'Current,Power'),
      ChargingScheduleMaxPeriods: ro('int', 24),
      MaxChargingProfilesInstalled: ro('int', 20),
    };
    for (const [key, def] of Object.entries(entries)) this.keys.set(key, def);
  }

  /** Answers GetConfiguration: every key when none is asked for. */
  get(requested?: string[]): { configurationKey: KeyValue[]; unknownKey: string[] } {
    const names = requested && requested.length > 0 ? requested : [...this.keys.keys()];
    const configurationKey: KeyValue[] = [];
    const unknownKey: string[] = [];
    for (const key of names) {
      const def = this.keys.get(key);
      if (def) configurationKey.push({ key, readonly: def.readonly, value: def.value });
      else unknownKey.push(key);
    }
    return { configurationKey, unknownKey };
  }

  value(key: string): string | undefined {
    return this.keys.get(key)?.value;
  }

  int(key: string): number {
    return Number(this.keys.get(key)?.value ?? 0);
  }

  bool(key: string): boolean {
    return this.keys.get(key)?.value === 'true';
  }

  list(key: string): string[] {
    return (this.keys.get(key)?.value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  }

  /** Answers ChangeConfiguration; listeners hear of accepted changes (timers restart). */
  change(key: string, value: string): ChangeResult {
    const def = this.keys.get(key);
    if (!def) return 'NotSupported';
    if (def.readonly || !valid(def, value)) return 'Rejected';
    def.value = def.kind === 'bool' ? value.toLowerCase() : value;
    for (const listener of this.listeners) listener(key, def.value);
    return 'Accepted';
  }

  /** Sets a value the charger itself decides (e.g. the heartbeat interval a BootNotification gave). */
  setInternal(key: string, value: string | number): void {
    const def = this.keys.get(key);
    if (def) def.value = String(value);
  }

  onChange(listener: (key: string, value: string) => void): void {
    this.listeners.push(listener);
  }
}

function valid(def: KeyDef, value: string): boolean {
  switch (def.kind) {
    case 'int':
      return /^\d+$/.test(value);
    case 'bool':
      return /^(true|false)$/i.test(value);
    case 'csl':
      return !def.members || value.split(',').map((s) => s.trim()).filter(Boolean).every((m) => def.members!.includes(m));
  }
}
