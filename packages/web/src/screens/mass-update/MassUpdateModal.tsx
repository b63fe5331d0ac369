import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Input, InputNumber, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MASS_UPDATE_KEYS, rangeOf, type ConfigSetting } from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { optionLabel, settingName } from '../charger/config-labels.ts';

type Answer = { status: 'success'; jobId?: string } | { status: 'error'; message: string; cpNos: string[] };
type Value = ConfigSetting['Value'];

/** The §9 key's input: range → number with min/max/step, selection → select, text → input. */
function KeyInput({ name, value, disabled, onChange }: { name: string; value: Value | undefined; disabled: boolean; onChange(v: Value): void }) {
  const { t } = useTranslation();
  const s = MASS_UPDATE_KEYS[name];
  const label = settingName(t, name);
  if (s.Type === 'Selection')
    return (
      <Select
        aria-label={label}
        disabled={disabled}
        value={value}
        onChange={onChange}
        style={{ width: 220 }}
        options={s.Option.map((o) => ({ value: o, label: optionLabel(t, o) }))}
      />
    );
  if (s.Type === 'Range')
    return <InputNumber aria-label={label} disabled={disabled} value={value as number} {...rangeOf(s)} onChange={(v) => v != null && onChange(v)} style={{ width: 220 }} />;
  return <Input aria-label={label} disabled={disabled} value={value as string} onChange={(e) => onChange(e.target.value)} style={{ width: 220 }} maxLength={2000} />;
}

/**
 * Spec part 1 §2, §5, §7: the mass-update popup of the chargers list. It first asks the server whether
 * every selected charger has a current configuration (§8 error listing those lacking one); Save (after
 * '{x} items have been changed…') applies the chosen settings and, answered 200, closes (jobId: the
 * sending that the chargers list then follows).
 */
export default function MassUpdateModal({ cpIds, onClose }: { cpIds: number[]; onClose(jobId?: string): void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [chosen, setChosen] = useState<Record<string, Value>>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const check = useQuery({
    queryKey: ['massUpdateCheck', cpIds],
    queryFn: () => api.post<Answer>('/cp_locs/cp_mass_update', { cpIds }),
    gcTime: 0,
  });
  const lacking = check.data?.status === 'error' ? check.data.cpNos : [];

  const toggle = (name: string, on: boolean) =>
    setChosen((c) => {
      const next = { ...c };
      if (on) next[name] = MASS_UPDATE_KEYS[name].Value;
      else delete next[name];
      return next;
    });

  const apply = async () => {
    setSaving(true);
    setFieldErrors({});
    try {
      const res = await api.post<Answer>('/cp_locs/cp_mass_update', { cpIds, commonConfigJson: chosen });
      if (res.status === 'error') {
        void check.refetch();
        return;
      }
      onClose(res.jobId);
    } catch (err) {
      const fields = err instanceof ApiError ? (err.body as { fields?: Record<string, string> } | null)?.fields : undefined;
      if (fields && Object.keys(fields).length) {
        setFieldErrors(fields);
        void message.error(
          Object.entries(fields)
            .map(([name, code]) => `${settingName(t, name)}: ${t(`msg.form.${code}`, { defaultValue: code })}`)
            .join('; '),
        );
      } else void message.error(errorText(err, t));
    } finally {
      setSaving(false);
    }
  };

  const save = () =>
    modal.confirm({
      title: t('msg.confirmChanges', { x: Object.keys(chosen).length }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: apply,
    });

  const count = Object.keys(chosen).length;
  const footer = [
    <Button key="back" onClick={() => onClose()}>
      {t('ui.massUpdate.back')}
    </Button>,
    <Button key="save" type="primary" loading={saving} disabled={!count || lacking.length > 0 || !check.isSuccess} onClick={save}>
      {t('ui.common.save')}
    </Button>,
  ];

  return (
    <Modal
      open
      title={t('ui.massUpdate.title', { count: cpIds.length })}
      width={760}
      onCancel={() => onClose()}
      maskClosable={false}
      footer={footer}
      destroyOnHidden
    >
      {check.isError && <Alert type="error" showIcon title={errorText(check.error, t)} style={{ marginBottom: 12 }} />}
      {lacking.length > 0 && (
        <Alert
          type="error"
          showIcon
          data-testid="mass-update-no-config"
          style={{ marginBottom: 12 }}
          title={t('msg.massUpdateNoConfig')}
          description={
            <Space wrap size={4}>
              {lacking.map((no) => (
                <Tag key={no}>{no}</Tag>
              ))}
            </Space>
          }
        />
      )}
      <Typography.Paragraph type="secondary">{t('ui.massUpdate.hint')}</Typography.Paragraph>
      <Table
        size="small"
        rowKey="name"
        pagination={false}
        scroll={{ y: 420 }}
        dataSource={Object.keys(MASS_UPDATE_KEYS).map((name) => ({ name }))}
        columns={[
          {
            key: 'name',
            title: t('ui.massUpdate.setting'),
            render: (_: unknown, { name }: { name: string }) => (
              <Checkbox checked={name in chosen} onChange={(e) => toggle(name, e.target.checked)} data-testid={`mu-key-${name}`}>
                {settingName(t, name)}
              </Checkbox>
            ),
          },
          {
            key: 'value',
            title: t('ui.massUpdate.value'),
            render: (_: unknown, { name }: { name: string }) => (
              <div>
                <KeyInput name={name} value={chosen[name]} disabled={!(name in chosen)} onChange={(v) => setChosen((c) => ({ ...c, [name]: v }))} />
                {fieldErrors[name] && (
                  <Typography.Text type="danger">{t(`msg.form.${fieldErrors[name]}`, { defaultValue: fieldErrors[name] })}</Typography.Text>
                )}
              </div>
            ),
          },
        ]}
      />
    </Modal>
  );
}
