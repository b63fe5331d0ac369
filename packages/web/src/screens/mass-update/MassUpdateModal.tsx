import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Input, InputNumber, Modal, Progress, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MASS_UPDATE_KEYS, rangeOf, type ConfigSetting, type MassUpdateProgress, type MassUpdateStatus } from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';

type Answer = { status: 'success'; jobId?: string } | { status: 'error'; message: string; cpNos: string[] };
type Value = ConfigSetting['Value'];

const STATUS_COLOR: Record<MassUpdateStatus, string> = { sent: 'green', offline: 'default', partial: 'orange', rejected: 'red', failed: 'red' };

/** The §9 key's input: range → number with min/max/step, selection → select, text → input. */
function KeyInput({ name, value, disabled, onChange }: { name: string; value: Value | undefined; disabled: boolean; onChange(v: Value): void }) {
  const s = MASS_UPDATE_KEYS[name];
  if (s.Type === 'Selection')
    return (
      <Select
        aria-label={name}
        disabled={disabled}
        value={value}
        onChange={onChange}
        style={{ width: 220 }}
        options={s.Option.map((o) => ({ value: o, label: String(o) }))}
      />
    );
  if (s.Type === 'Range')
    return <InputNumber aria-label={name} disabled={disabled} value={value as number} {...rangeOf(s)} onChange={(v) => v != null && onChange(v)} style={{ width: 220 }} />;
  return <Input aria-label={name} disabled={disabled} value={value as string} onChange={(e) => onChange(e.target.value)} style={{ width: 220 }} maxLength={2000} />;
}

/**
 * Spec part 1 §2, §5, §7: the mass-update popup of the chargers list. It first asks the server whether
 * every selected charger has a current configuration (§8 error listing those lacking one); Save (after
 * '{x} items have been changed…') applies the chosen settings, then follows the sending to the end.
 */
export default function MassUpdateModal({ cpIds, onClose }: { cpIds: number[]; onClose(applied: boolean): void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [chosen, setChosen] = useState<Record<string, Value>>({});
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [jobId, setJobId] = useState<string>();

  const check = useQuery({
    queryKey: ['massUpdateCheck', cpIds],
    queryFn: () => api.post<Answer>('/cp_locs/cp_mass_update', { cpIds }),
    gcTime: 0,
  });
  const lacking = check.data?.status === 'error' ? check.data.cpNos : [];

  const progress = useQuery({
    queryKey: ['massUpdateJob', jobId],
    queryFn: () => api.get<MassUpdateProgress>(`/cp_locs/cp_mass_update/${jobId}`),
    enabled: !!jobId,
    refetchInterval: (q) => (q.state.data?.finished ? false : 1000),
  });
  const job = progress.data;
  useEffect(() => {
    if (job?.finished) void message.success(t('ui.massUpdate.finished', { done: job.done, total: job.total }));
  }, [job?.finished]); // eslint-disable-line react-hooks/exhaustive-deps

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
      setJobId(res.jobId);
    } catch (err) {
      const fields = err instanceof ApiError ? (err.body as { fields?: Record<string, string> } | null)?.fields : undefined;
      if (fields && Object.keys(fields).length) {
        setFieldErrors(fields);
        const errors = (err as ApiError).body as { errors?: string[] };
        void message.error(errors.errors?.join('; ') ?? t('msg.badRequest'));
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
  const footer = jobId
    ? [
        <Button key="close" type="primary" disabled={!job?.finished} onClick={() => onClose(true)}>
          {t('ui.massUpdate.close')}
        </Button>,
      ]
    : [
        <Button key="back" onClick={() => onClose(false)}>
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
      onCancel={() => onClose(!!jobId)}
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
      {jobId ? (
        <div data-testid="mass-update-progress">
          <Typography.Paragraph>
            {job?.finished
              ? t('ui.massUpdate.finished', { done: job.done, total: job.total })
              : t('ui.massUpdate.progress', { done: job?.done ?? 0, total: job?.total ?? cpIds.length })}
          </Typography.Paragraph>
          <Progress percent={job ? Math.round((job.done / Math.max(job.total, 1)) * 100) : 0} status={job?.finished ? 'success' : 'active'} />
          <Table
            size="small"
            rowKey="cpId"
            style={{ marginTop: 12 }}
            dataSource={job?.results ?? []}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            columns={[
              { key: 'cpNo', dataIndex: 'cpNo', title: t('ui.massUpdate.cpNo') },
              {
                key: 'status',
                dataIndex: 'status',
                title: t('ui.massUpdate.status'),
                render: (s: MassUpdateStatus) => <Tag color={STATUS_COLOR[s]}>{t(`ui.massUpdate.statusLabel.${s}`)}</Tag>,
              },
              {
                key: 'keys',
                dataIndex: 'keys',
                title: t('ui.massUpdate.keys'),
                render: (keys: MassUpdateProgress['results'][number]['keys']) =>
                  Object.entries(keys)
                    .map(([k, r]) => `${k}: ${t(`ui.cpConfig.resultLabel.${r}`)}`)
                    .join('; '),
              },
            ]}
          />
        </div>
      ) : (
        <>
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
                    {name}
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
        </>
      )}
    </Modal>
  );
}
