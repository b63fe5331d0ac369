import { describe, expect, it } from 'vitest';
import { Form } from 'antd';
import type { ConfigJson, ConfigSetting } from '@ev/core';
import { renderScreen } from '../../testing/render.tsx';
import { ConfigSettingItem, configJsonOf } from './ConfigTab.tsx';

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
});
