import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { allPrivilegeNames, editPrivilege } from '@ev/core';
import { renderScreen } from '../../testing/render.tsx';
import { OnChargerSection, type DeviceModel, type DeviceVariable } from './DeviceModelSection.tsx';

const v = (component: string, variable: string, value: string | null, mutability: string, extra: Partial<DeviceVariable> = {}): DeviceVariable => ({
  component, componentInstance: null, evseId: null, connectorId: null, variable, variableInstance: null, attributeType: 'Actual',
  value, mutability, dataType: 'string', unit: null, valuesList: null, readAt: '2026-11-27T10:00:00Z', ...extra,
});
const MODEL: DeviceModel = {
  report: { requestId: 3, reportBase: 'FullInventory', requestedAt: '2026-11-27T10:00:00Z', parts: 2, completedAt: '2026-11-27T10:00:01Z' },
  variables: [
    v('EVSE', 'AvailabilityState', 'Available', 'ReadOnly', { evseId: 1 }),
    v('EVSE', 'Power', '22000', 'ReadOnly', { evseId: 1, unit: 'W' }),
    v('OCPPCommCtrlr', 'HeartbeatInterval', '300', 'ReadWrite', { unit: 's', dataType: 'integer' }),
    v('SecurityCtrlr', 'BasicAuthPassword', null, 'WriteOnly'),
    v('SecurityCtrlr', 'Identity', 'CS-1', 'ReadOnly'),
  ],
};

/** The Configuration tab's charger section as the charger record and device model answers make it (nothing fetched). */
function render(charger: object, model: DeviceModel = MODEL, lang: 'en' | 'zh-TW' = 'en', privileges = allPrivilegeNames()) {
  const queries = new QueryClient();
  queries.setQueryData(['record', 'cps', '7'], { cp_id: 7, ...charger });
  queries.setQueryData(['deviceModel', 7], model);
  queries.setQueryData(['getConfiguration', 7], { configurationKey: [], unknownKey: [], readAt: null, drift: [], vendorSettings: [] });
  return renderScreen(lang, <OnChargerSection cpId={7} />, privileges, queries);
}
const count = (html: string, text: string) => html.split(text).length - 1;

describe('the device model section of a 2.0.1 charger', () => {
  it('replaces the 1.6 key table for a charger that last connected with OCPP 2.0.1', async () => {
    const html = await render({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1' });
    expect(html).toContain('data-testid="device-model"');
    expect(html).not.toContain('data-testid="charger-keys"');
    const v16 = await render({ online_flag: 1, ocpp_protocol: 'ocpp1.6' });
    expect(v16).toContain('data-testid="charger-keys"');
    expect(v16).not.toContain('data-testid="device-model"');
    expect(await render({ online_flag: 0, ocpp_protocol: null })).toContain('data-testid="charger-keys"');
  });

  it('groups the variables by component, with value, unit and access, and Edit only on writable ones', async () => {
    const html = await render({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1' });
    // The EVSE component's cell spans its two variables; each component named once.
    expect(html).toMatch(/rowSpan="2"[^>]*>EVSE</);
    expect(count(html, '>SecurityCtrlr<')).toBe(1);
    expect(html).toContain('HeartbeatInterval');
    expect(html).toContain('22000');
    expect(html).toContain('Read and write');
    expect(html).toContain('(write-only: not read back)');
    expect(html).toContain('Last report 2026-11-27');
    // HeartbeatInterval only: the password is set through its own action, read-only ones not at all.
    expect(count(html, 'aria-label="Edit ')).toBe(1);
    expect(html).toContain('aria-label="Edit OCPPCommCtrlr HeartbeatInterval"');
    expect(count(await render({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1' }, MODEL, 'en', allPrivilegeNames().filter((p) => p !== editPrivilege('cp_config'))), 'aria-label="Edit ')).toBe(0);
  });

  it('is disabled while the charger is offline; says when a report stopped half way', async () => {
    const offline = await render({ online_flag: 0, ocpp_protocol: 'ocpp2.0.1' });
    expect(offline).toMatch(/<button[^>]*disabled[^>]*>(?:(?!<\/button>).)*Read from the charger/);
    expect(offline).toMatch(/<button[^>]*disabled[^>]*aria-label="Edit OCPPCommCtrlr HeartbeatInterval"|aria-label="Edit OCPPCommCtrlr HeartbeatInterval"[^>]*disabled/);
    const online = await render({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1' });
    expect(online).not.toMatch(/<button[^>]*disabled[^>]*>(?:(?!<\/button>).)*Read from the charger/);
    const half = await render({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1' }, { ...MODEL, report: { ...MODEL.report!, completedAt: null } });
    expect(half).toContain('The report is incomplete: the charger sent 2 parts');
    expect(await render({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1' }, { report: null, variables: [] })).toContain('Not read yet');
  });

  it('speaks Traditional Chinese', async () => {
    const html = await render({ online_flag: 1, ocpp_protocol: 'ocpp2.0.1' }, MODEL, 'zh-TW');
    for (const text of ['裝置模型', '從充電樁讀取', '元件', '變數', '可讀寫', '唯讀', '編輯', '最後報告於']) expect(html).toContain(text);
  });
});
