import { describe, expect, it } from 'vitest';
import { Form } from 'antd';
import type { ConfigJson, ConfigSetting } from '@ev/core';
import { renderScreen } from '../../testing/render.tsx';
import { configJsonOf } from './ConfigTab.tsx';
import { ConfigSettingItem } from './ConfigSettingItem.tsx';

describe('the config_json the Configuration tab saves', () => {
  const json: ConfigJson = {
    'End upon state A': { Type: 'Selection', Authority: 'Everyone', Value: 'No', Option: ['Yes', 'No'] },
    Flag: { Type: 'Selection', Authority: 'Admin', Value: 0, Option: [1, 0] },
    'Time Zone': { Type: 'Range', Authority: 'Everyone', Value: 8, Option: [-12, 13, 1] },
    Window: { Type: 'Selection', Authority: 'Everyone', Value: 'Full', Option: ['Full', 'Shrink'] },
    'Server Path': { Type: 'Text', Authority: 'Admin', Value: 'wss://a', Option: [] },
  };

  it('writes ticks back as the setting spells its choices, numbers as numbers, and keeps settings not in the form', () => {
    const out = JSON.parse(configJsonOf(json, { 'End upon state A': true, Flag: true, 'Time Zone': 9, Window: 'Shrink' }));
    expect(out['End upon state A'].Value).toBe('Yes');
    expect(out.Flag.Value).toBe(1);
    expect(out['Time Zone']).toEqual({ Type: 'Range', Authority: 'Everyone', Value: 9, Option: [-12, 13, 1] });
    expect(out.Window.Value).toBe('Shrink');
    expect(out['Server Path'].Value).toBe('wss://a');
  });
});

describe('a setting in the edit popup', () => {
  const item = (setting: ConfigSetting, mayAdmin: boolean, lang: 'en' | 'zh-TW' = 'en') =>
    renderScreen(
      lang,
      <Form initialValues={{ settings: { X: setting.Value } }}>
        <ConfigSettingItem name="X" setting={setting} saved={setting} mayAdmin={mayAdmin} />
      </Form>,
    );
  const range: ConfigSetting = { Type: 'Range', Authority: 'Admin', Value: 5000, Option: [500, 30000, 500] };

  it('draws a Range as a number input with its bounds, read-only for an Admin setting without the right', async () => {
    const locked = await item(range, false);
    expect(locked).toContain('aria-valuemin="500"');
    expect(locked).toContain('aria-valuemax="30000"');
    expect(locked).toMatch(/<input[^>]*disabled/);
    expect(locked).toContain('Admin');
    expect(await item(range, true)).not.toMatch(/<input[^>]*disabled/);
    expect(await item({ ...range, Authority: 'Everyone' }, false)).not.toMatch(/<input[^>]*disabled/);
    expect(await item(range, false, 'zh-TW')).toContain('管理員');
  });

  it('a boolean already on cannot be unticked; one that is off can be ticked', async () => {
    const on = await item({ Type: 'Selection', Authority: 'Everyone', Value: 'Yes', Option: ['Yes', 'No'] }, true);
    expect(on).toMatch(/type="checkbox"[^>]*disabled|disabled[^>]*type="checkbox"/);
    const off = await item({ Type: 'Selection', Authority: 'Everyone', Value: 'No', Option: ['Yes', 'No'] }, true);
    expect(off).toContain('type="checkbox"');
    expect(off).not.toMatch(/type="checkbox"[^>]*disabled|disabled[^>]*type="checkbox"/);
  });

  it('draws a Text as an input and a Selection as a select', async () => {
    expect(await item({ Type: 'Text', Authority: 'Everyone', Value: 'wss://a', Option: [] }, false)).toContain('value="wss://a"');
    expect(await item({ Type: 'Selection', Authority: 'Everyone', Value: 'Full', Option: ['Full', 'Shrink'] }, false)).toContain('ant-select');
  });

  it('shows setting names, choices and the step in Traditional Chinese; the remote OCPP password as a blank password input', async () => {
    const named = (name: string, setting: ConfigSetting) =>
      renderScreen(
        'zh-TW',
        <Form initialValues={{ settings: { [name]: setting.Value } }}>
          <ConfigSettingItem name={name} setting={setting} saved={setting} mayAdmin />
        </Form>,
      );
    const unlock = await named('Auto Unlock Interval (ms)', { Type: 'Range', Authority: 'Everyone', Value: 3000, Option: [0, 10000, 100] });
    expect(unlock).toContain('自動解鎖間隔（毫秒）');
    expect(unlock).toContain('0 – 10000，每級 100');
    expect(await named('Window', { Type: 'Selection', Authority: 'Everyone', Value: 'Full', Option: ['Full', 'Shrink'] })).toContain('全螢幕');
    const pw = await named('Remote OCPP Password', { Type: 'Text', Authority: 'Admin', Value: '', Option: [] });
    expect(pw).toContain('遠端 OCPP 密碼');
    expect(pw).toContain('type="password"');
    expect(pw).toContain('留空即保留已儲存的值');
  });
});
