import type { Configuration } from '../configuration.ts';

/**
 * The OCPP 2.0.1 device model of the simulated station (Part 2 §B, appendix 3), kept small: the
 * controller components a CSMS reads and writes, and the station, EVSE and connector components.
 * Most writable variables are the 1.6 configuration keys under their 2.0.1 names (the charger's
 * timers and rules read those keys), so both versions behave alike. Only attribute Actual exists.
 */

export type Mutability = 'ReadOnly' | 'ReadWrite' | 'WriteOnly';
type DataType = 'string' | 'integer' | 'boolean' | 'MemberList' | 'OptionList';

export interface ComponentRef { name: string; instance?: string; evse?: { id: number; connectorId?: number } }
export interface VariableRef { name: string; instance?: string }
interface Request { attributeType?: string; component: ComponentRef; variable: VariableRef }

interface Variable {
  component: ComponentRef;
  variable: VariableRef;
  mutability: Mutability;
  dataType: DataType;
  valuesList?: string;
  unit?: string;
  read: () => string;
  write?: (value: string) => 'Accepted' | 'Rejected';
}

/** What the device model reads of and writes to the station. */
export interface DeviceModelHost {
  readonly config: Configuration;
  readonly cpNo: string;
  readonly vendor: string;
  readonly model: string;
  readonly evseCount: number;
  /** AvailabilityState of the station (0) or of an EVSE and its connector. */
  availabilityState(evseId: number): string;
  maxPowerW(): number;
  /** SecurityCtrlr.BasicAuthPassword: used from the next connection on. */
  setPassword(password: string): 'Accepted' | 'Rejected';
  hasPassword(): boolean;
}

export type ReportBase = 'ConfigurationInventory' | 'FullInventory' | 'SummaryInventory';

/** NotifyReport parts hold this many variables at most (DeviceDataCtrlr.ItemsPerMessage[GetReport]). */
export const REPORT_ITEMS_PER_MESSAGE = 10;

export class DeviceModel {
  private readonly variables: Variable[];

  constructor(host: DeviceModelHost) {
    const { config } = host;
    const fixed = (value: () => string, dataType: DataType = 'string') => ({ mutability: 'ReadOnly' as const, dataType, read: value });
    // A 2.0.1 variable stored as the 1.6 key of the same meaning.
    const key = (name: string, dataType: DataType, extra: Partial<Variable> = {}) => ({
      mutability: 'ReadWrite' as const, dataType, ...extra,
      read: () => config.value(name) ?? '',
      write: (value: string) => (config.change(name, value) === 'Accepted' ? 'Accepted' as const : 'Rejected' as const),
    });
    const v = (component: string | ComponentRef, variable: string | VariableRef, def: Omit<Variable, 'component' | 'variable'>): Variable => ({
      component: typeof component === 'string' ? { name: component } : component,
      variable: typeof variable === 'string' ? { name: variable } : variable,
      ...def,
    });
    const measurands = 'Energy.Active.Import.Register,Power.Active.Import,Current.Import,Current.Offered,Voltage,SoC';
    this.variables = [
      v('ChargingStation', 'AvailabilityState', fixed(() => host.availabilityState(0), 'OptionList')),
      v('ChargingStation', 'Model', fixed(() => host.model)),
      v('ChargingStation', 'VendorName', fixed(() => host.vendor)),
      v('OCPPCommCtrlr', 'HeartbeatInterval', key('HeartbeatInterval', 'integer', { unit: 's' })),
      v('OCPPCommCtrlr', 'WebSocketPingInterval', key('WebSocketPingInterval', 'integer', { unit: 's' })),
      v('DeviceDataCtrlr', { name: 'ItemsPerMessage', instance: 'GetReport' }, fixed(() => String(REPORT_ITEMS_PER_MESSAGE), 'integer')),
      v('SampledDataCtrlr', 'Enabled', fixed(() => 'true', 'boolean')),
      v('SampledDataCtrlr', 'TxUpdatedInterval', key('MeterValueSampleInterval', 'integer', { unit: 's' })),
      v('SampledDataCtrlr', 'TxUpdatedMeasurands', key('MeterValuesSampledData', 'MemberList', { valuesList: measurands })),
      v('SampledDataCtrlr', 'TxEndedMeasurands', key('StopTxnSampledData', 'MemberList', { valuesList: measurands })),
      v('TxCtrlr', 'EVConnectionTimeOut', key('ConnectionTimeOut', 'integer', { unit: 's' })),
      v('TxCtrlr', 'StopTxOnInvalidId', key('StopTransactionOnInvalidId', 'boolean')),
      v('TxCtrlr', 'StopTxOnEVSideDisconnect', key('StopTransactionOnEVSideDisconnect', 'boolean')),
      v('TxCtrlr', 'TxStartPoint', fixed(() => 'PowerPathClosed', 'MemberList')),
      v('TxCtrlr', 'TxStopPoint', fixed(() => 'EVConnected,Authorized', 'MemberList')),
      v('AuthCtrlr', 'Enabled', fixed(() => 'true', 'boolean')),
      v('AuthCtrlr', 'AuthorizeRemoteStart', key('AuthorizeRemoteTxRequests', 'boolean')),
      v('AuthCtrlr', 'LocalAuthorizeOffline', key('LocalAuthorizeOffline', 'boolean')),
      v('AuthCtrlr', 'OfflineTxForUnknownIdEnabled', key('AllowOfflineTxForUnknownId', 'boolean')),
      v('SecurityCtrlr', 'Identity', fixed(() => host.cpNo)),
      v('SecurityCtrlr', 'SecurityProfile', fixed(() => (host.hasPassword() ? '1' : '0'), 'integer')),
      // Write-only: the CSMS sets it, nobody reads it back (OCPP 2.0.1 A01).
      v('SecurityCtrlr', 'BasicAuthPassword', { mutability: 'WriteOnly', dataType: 'string', read: () => '', write: (p) => host.setPassword(p) }),
      v('SmartChargingCtrlr', 'Enabled', fixed(() => 'true', 'boolean')),
      v('SmartChargingCtrlr', 'ProfileStackLevel', fixed(() => config.value('ChargeProfileMaxStackLevel') ?? '0', 'integer')),
      v('SmartChargingCtrlr', 'RateUnit', fixed(() => 'A,W', 'MemberList')),
      v('SmartChargingCtrlr', 'PeriodsPerSchedule', fixed(() => config.value('ChargingScheduleMaxPeriods') ?? '0', 'integer')),
    ];
    for (let id = 1; id <= host.evseCount; id++) {
      const evse = { name: 'EVSE', evse: { id } };
      const connector = { name: 'Connector', evse: { id, connectorId: 1 } };
      this.variables.push(
        v(evse, 'AvailabilityState', fixed(() => host.availabilityState(id), 'OptionList')),
        v(evse, 'Power', { ...fixed(() => String(host.maxPowerW()), 'integer'), unit: 'W' }),
        v(connector, 'AvailabilityState', fixed(() => host.availabilityState(id), 'OptionList')),
        v(connector, 'ConnectorType', fixed(() => 'cType2', 'OptionList')),
      );
    }
  }

  /** GetVariables: one result per request, in order. */
  get(requests: Request[]): Record<string, unknown>[] {
    return requests.map((r) => {
      const found = this.find(r);
      const echo = { component: r.component, variable: r.variable, ...(r.attributeType ? { attributeType: r.attributeType } : {}) };
      if (typeof found === 'string') return { ...echo, attributeStatus: found };
      // A write-only variable (a password) never leaves the station.
      if (found.mutability === 'WriteOnly') return { ...echo, attributeStatus: 'Rejected' };
      return { ...echo, attributeStatus: 'Accepted', attributeValue: found.read() };
    });
  }

  /** SetVariables: read-only variables and values the variable does not take are Rejected. */
  set(requests: (Request & { attributeValue: string })[]): Record<string, unknown>[] {
    return requests.map((r) => {
      const found = this.find(r);
      const echo = { component: r.component, variable: r.variable, ...(r.attributeType ? { attributeType: r.attributeType } : {}) };
      if (typeof found === 'string') return { ...echo, attributeStatus: found };
      const written = found.mutability !== 'ReadOnly' && found.write ? found.write(r.attributeValue) : 'Rejected';
      return { ...echo, attributeStatus: written };
    });
  }

  /**
   * GetBaseReport: the report data of every variable (FullInventory) or of those a CSMS may set
   * (ConfigurationInventory); undefined for SummaryInventory, which this station does not support.
   */
  report(base: ReportBase): Record<string, unknown>[] | undefined {
    if (base === 'SummaryInventory') return undefined;
    const chosen = base === 'FullInventory' ? this.variables : this.variables.filter((v) => v.mutability !== 'ReadOnly');
    return chosen.map((v) => ({
      component: v.component,
      variable: v.variable,
      variableAttribute: [{
        type: 'Actual', mutability: v.mutability, persistent: true, constant: false,
        ...(v.mutability === 'WriteOnly' ? {} : { value: v.read() }),
      }],
      variableCharacteristics: {
        dataType: v.dataType, supportsMonitoring: false,
        ...(v.unit ? { unit: v.unit } : {}), ...(v.valuesList ? { valuesList: v.valuesList } : {}),
      },
    }));
  }

  /** The variable asked for, or why there is none. */
  private find(r: Request): Variable | 'UnknownComponent' | 'UnknownVariable' | 'NotSupportedAttributeType' {
    const inComponent = this.variables.filter((v) => sameComponent(v.component, r.component));
    if (inComponent.length === 0) return 'UnknownComponent';
    const found = inComponent.find((v) => v.variable.name === r.variable.name && v.variable.instance === r.variable.instance);
    if (!found) return 'UnknownVariable';
    if (r.attributeType !== undefined && r.attributeType !== 'Actual') return 'NotSupportedAttributeType';
    return found;
  }
}

function sameComponent(a: ComponentRef, b: ComponentRef): boolean {
  return a.name === b.name && a.instance === b.instance &&
    a.evse?.id === b.evse?.id && a.evse?.connectorId === b.evse?.connectorId;
}
