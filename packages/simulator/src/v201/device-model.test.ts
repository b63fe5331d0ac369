import { expect, it } from 'vitest';
import { REPORT_ITEMS_PER_MESSAGE } from './device-model.ts';
import { withTestCentral201 } from './test-central.ts';

const t = withTestCentral201({ connectors: 2 });

const get = (component: object, variable: object, attributeType?: string) => ({ component, variable, ...(attributeType ? { attributeType } : {}) });

it('GetVariables reads the device model and says why a variable is missing', async () => {
  const cp = t.charger({ heartbeatIntervalSec: 120 });
  await cp.start();
  const { getVariableResult } = await t.central.call('CS001', 'GetVariables', { getVariableData: [
    get({ name: 'OCPPCommCtrlr' }, { name: 'HeartbeatInterval' }),
    get({ name: 'Connector', evse: { id: 2, connectorId: 1 } }, { name: 'AvailabilityState' }),
    get({ name: 'SecurityCtrlr' }, { name: 'BasicAuthPassword' }),
    get({ name: 'NoSuchCtrlr' }, { name: 'Enabled' }),
    get({ name: 'TxCtrlr' }, { name: 'NoSuchVariable' }),
    get({ name: 'TxCtrlr' }, { name: 'StopTxOnInvalidId' }, 'MaxSet'),
    get({ name: 'EVSE', evse: { id: 3 } }, { name: 'AvailabilityState' }),
  ] });
  expect(getVariableResult.map((r: any) => [r.attributeStatus, r.attributeValue])).toEqual([
    ['Accepted', '120'], ['Accepted', 'Available'], ['Rejected', undefined], ['UnknownComponent', undefined],
    ['UnknownVariable', undefined], ['NotSupportedAttributeType', undefined], ['UnknownComponent', undefined],
  ]);
  expect(getVariableResult[1].component).toEqual({ name: 'Connector', evse: { id: 2, connectorId: 1 } });
});

it('SetVariables writes what is writable, and the station follows (meter interval, password)', async () => {
  const cp = t.charger();
  await cp.start();
  const set = (component: string, name: string, attributeValue: string) => ({ component: { name: component }, variable: { name }, attributeValue });
  const { setVariableResult } = await t.central.call('CS001', 'SetVariables', { setVariableData: [
    set('SampledDataCtrlr', 'TxUpdatedInterval', '1'),
    set('SampledDataCtrlr', 'TxUpdatedMeasurands', 'Energy.Active.Import.Register'),
    set('OCPPCommCtrlr', 'HeartbeatInterval', 'soon'),
    set('SecurityCtrlr', 'Identity', 'someone-else'),
    set('SecurityCtrlr', 'BasicAuthPassword', 'short'),
    set('SecurityCtrlr', 'BasicAuthPassword', 'a-new-password-of-24-chr'),
  ] });
  expect(setVariableResult.map((r: any) => r.attributeStatus)).toEqual(['Accepted', 'Accepted', 'Rejected', 'Rejected', 'Rejected', 'Accepted']);
  expect(cp.password).toBe('a-new-password-of-24-chr');
  await cp.startTransaction(1, 'TAG1');
  // TxUpdatedInterval 1 s: periodic Updated events carry only the measurands asked for.
  const periodic = await t.central.waitFor((m) => m.method === 'TransactionEvent' && m.params.triggerReason === 'MeterValuePeriodic', 3000);
  expect(periodic.params.meterValue[0].sampledValue.map((v: any) => v.measurand)).toEqual(['Energy.Active.Import.Register']);
});

it('GetBaseReport answers with NotifyReport parts: seqNo from 0, tbc until the last', async () => {
  const cp = t.charger();
  await cp.start();
  expect(await t.central.call('CS001', 'GetBaseReport', { requestId: 5, reportBase: 'FullInventory' })).toEqual({ status: 'Accepted' });
  await t.central.waitFor(() => t.central.messages('NotifyReport').some((m) => !m.params.tbc));
  const parts = t.central.messages('NotifyReport').map((m) => m.params);
  expect(parts.length).toBeGreaterThan(1);
  expect(parts.map((p) => p.seqNo)).toEqual(parts.map((_, i) => i));
  expect(parts.map((p) => p.tbc)).toEqual(parts.map((_, i) => i < parts.length - 1));
  expect(parts.every((p) => p.requestId === 5 && p.reportData.length <= REPORT_ITEMS_PER_MESSAGE)).toBe(true);
  const data = parts.flatMap((p) => p.reportData);
  const find = (component: string, variable: string) => data.find((d: any) => d.component.name === component && d.variable.name === variable);
  expect(find('SampledDataCtrlr', 'TxUpdatedInterval').variableAttribute[0]).toMatchObject({ type: 'Actual', mutability: 'ReadWrite', value: '0' });
  // Write-only: reported as such, never with its value.
  expect(find('SecurityCtrlr', 'BasicAuthPassword').variableAttribute[0]).toEqual({ type: 'Actual', mutability: 'WriteOnly', persistent: true, constant: false });
  expect(data.filter((d: any) => d.component.name === 'EVSE' && d.variable.name === 'AvailabilityState').map((d: any) => d.component.evse.id)).toEqual([1, 2]);

  expect(await t.central.call('CS001', 'GetBaseReport', { requestId: 6, reportBase: 'ConfigurationInventory' })).toEqual({ status: 'Accepted' });
  await t.central.waitFor(() => t.central.messages('NotifyReport').some((m) => m.params.requestId === 6 && !m.params.tbc));
  const config = t.central.messages('NotifyReport').filter((m) => m.params.requestId === 6).flatMap((m) => m.params.reportData);
  expect(config.length).toBeGreaterThan(0);
  expect(config.every((d: any) => d.variableAttribute[0].mutability !== 'ReadOnly')).toBe(true);
  expect(await t.central.call('CS001', 'GetBaseReport', { requestId: 7, reportBase: 'SummaryInventory' })).toEqual({ status: 'NotSupported' });
});
