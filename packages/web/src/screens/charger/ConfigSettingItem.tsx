import { Checkbox, Form, Input, InputNumber, Select, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { isBooleanSetting, isOn, isOnStep, rangeOf, SECRET_SETTINGS, type ConfigSetting } from '@ev/core';
import { optionLabel, settingName } from './config-labels.ts';

/**
 * One setting in the config popup, drawn by its Type: Selection a select of its Option (a Yes/No or 1/0 one a tick box),
 * Range a number input with its min, max and step, Text an input (a secret one a password input, blank: the server
 * never answers it). Read-only when it is an Admin setting and the user lacks the Admin settings right, and (spec §3)
 * when it is a boolean already on in the saved config.
 */
export function ConfigSettingItem({ name, setting: s, saved, mayAdmin }: { name: string; setting: ConfigSetting; saved?: ConfigSetting; mayAdmin: boolean }) {
  const { t } = useTranslation();
  const adminLocked = s.Authority === 'Admin' && !mayAdmin;
  const shown = settingName(t, name);
  const label = (
    <Space size={4}>
      <span>{shown}</span>
      {s.Authority === 'Admin' && (
        <Tooltip title={mayAdmin ? undefined : t('ui.cpConfig.adminHint')}>
          <Tag color="purple">{t('ui.cpConfig.adminOnly')}</Tag>
        </Tooltip>
      )}
    </Space>
  );
  if (isBooleanSetting(s)) {
    const onAlready = isOn(saved?.Value);
    return (
      <Form.Item name={['settings', name]} valuePropName="checked" label={label} tooltip={onAlready ? t('ui.cpConfig.onceOnHint') : undefined}>
        <Checkbox disabled={adminLocked || onAlready} aria-label={shown} />
      </Form.Item>
    );
  }
  const range = rangeOf(s);
  const input =
    s.Type === 'Selection' ? (
      <Select disabled={adminLocked} aria-label={shown} options={s.Option.map((o) => ({ value: o, label: optionLabel(t, o) }))} />
    ) : s.Type === 'Range' ? (
      <InputNumber disabled={adminLocked} aria-label={shown} {...range} style={{ width: 200 }} />
    ) : SECRET_SETTINGS.has(name) ? (
      <Input.Password disabled={adminLocked} aria-label={shown} maxLength={2000} placeholder={t('ui.cpConfig.secretKeep')} autoComplete="new-password" />
    ) : (
      <Input disabled={adminLocked} aria-label={shown} maxLength={2000} />
    );
  return (
    <Form.Item
      name={['settings', name]}
      label={label}
      rules={
        s.Type === 'Range'
          ? [
              { required: true, message: t('msg.form.required') },
              { validator: async (_, v) => { if (v != null && !isOnStep(s, Number(v))) throw new Error(t('msg.form.not_on_step')); } },
            ]
          : []
      }
      extra={s.Type === 'Range' ? t('ui.cpConfig.range', range) : undefined}
    >
      {input}
    </Form.Item>
  );
}
