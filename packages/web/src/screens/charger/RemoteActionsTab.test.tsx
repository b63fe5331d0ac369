import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { allPrivilegeNames, BOOT_PENDING, BOOT_REJECTED, P } from '@ev/core';
import { renderScreen } from '../../testing/render.tsx';
import RemoteActionsTab from './RemoteActionsTab.tsx';
import { EvseConnectorInput } from './EvseTargets.tsx';

/** The Remote actions tab as the charger record and its connectors make it (nothing fetched). */
function render(protocol: string | null, lang: 'en' | 'zh-TW' = 'en', privileges = allPrivilegeNames(), chargingStatus = 'Available') {
  const queries = new QueryClient();
  queries.setQueryData(['record', 'cps', '7'], {
    cp_id: 7, online_flag: 1, double_use_flag: 0, last_known_status: null, last_status_dttm: null, offline_since: null, ocpp_protocol: protocol, charging_status: chargingStatus,
  });
  queries.setQueryData(['cp_connectors', 'actions', 7], [1, 2].map((n) => ({ cp_id: 7, connector_id: n, connector_name: null, status: 'Available', session_id: null })));
  return renderScreen(lang, <RemoteActionsTab cpId={7} />, privileges, queries);
}

describe('the Remote actions tab: EVSE targets of an OCPP 2.0.1 charger', () => {
  it('offers the reset target (whole station or an EVSE) only for a 2.0.1 charger, to those who may reset', async () => {
    const v201 = await render('ocpp2.0.1');
    expect(v201).toContain('data-testid="reset-target"');
    expect(v201).toContain('aria-label="What to reset"');
    expect(v201).toContain('Reset (Hard)');
    for (const other of ['ocpp1.6', null]) expect(await render(other)).not.toContain('data-testid="reset-target"');
    expect(await render('ocpp2.0.1', 'en', allPrivilegeNames().filter((p) => p !== P.REMOTE_RESET_CHARGER))).not.toContain('data-testid="reset-target"');
    expect(await render('ocpp2.0.1', 'zh-TW')).toContain('aria-label="重設對象"');
  });

  it('asks for the connector within the EVSE in both languages', async () => {
    const en = await renderScreen('en', <EvseConnectorInput onChange={() => {}} />);
    expect(en).toContain('Connector within the EVSE (optional)');
    expect(en).toContain('several connectors');
    const zh = await renderScreen('zh-TW', <EvseConnectorInput onChange={() => {}} />);
    expect(zh).toContain('EVSE 內的充電槍（選填）');
  });
});

describe('the Remote actions tab of a connected charger whose boot was not accepted', () => {
  const disabled = (html: string, label: string) => new RegExp(`<button[^>]*disabled=""[^>]*>(<[^>]+>)*${label.replace(/[()]/g, '\\$&')}<`).test(html);

  it('says a rejected boot takes no command, and offers none', async () => {
    const en = await render('ocpp1.6', 'en', allPrivilegeNames(), BOOT_REJECTED);
    expect(en).toContain('data-testid="charger-boot-not-accepted"');
    expect(en).toContain('Connected, boot rejected');
    expect(en).toContain('no command goes to it');
    for (const label of ['Reset (Hard)', 'Start', 'Set Available']) expect(disabled(en, label), label).toBe(true);
    expect(await render('ocpp1.6', 'zh-TW', allPrivilegeNames(), BOOT_REJECTED)).toContain('已連線，開機被拒');
  });

  it('while pending, keeps remote start off and the rest on', async () => {
    const en = await render('ocpp2.0.1', 'en', allPrivilegeNames(), BOOT_PENDING);
    expect(en).toContain('Connected, waiting for configuration');
    expect(disabled(en, 'Start')).toBe(true);
    expect(disabled(en, 'Reset (Hard)')).toBe(false);
  });

  it('shows no such notice for an accepted charger', async () => {
    const en = await render('ocpp1.6');
    expect(en).not.toContain('data-testid="charger-boot-not-accepted"');
    expect(disabled(en, 'Reset (Hard)')).toBe(false);
  });
});
