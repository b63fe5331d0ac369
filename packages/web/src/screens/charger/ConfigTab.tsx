import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Checkbox, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  booleanChoices, createPrivilege, editPrivilege, isBooleanSetting, isOn, P,
  type ConfigJson, type ConfigSendResult, type ConfigSetting, type CpConfigRow, type FwVerConfig,
} from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { optionLabel, settingName } from './config-labels.ts';
import { ConfigSettingItem } from './ConfigSettingItem.tsx';
import { OnChargerSection } from './DeviceModelSection.tsx';

const RESULT_COLOURS: Record<ConfigSendResult, string> = {
  Accepted: 'green',
  Rejected: 'red',
  RebootRequired: 'orange',
  NotSupported: 'default',
  Offline: 'default',
};

type SaveAnswer = { status: 'success'; data: CpConfigRow } | { status: 'error'; errorCode: number };

const when = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '');

/** The form value of a setting: booleans as a tick, Range as a number, the rest as the stored value. */
const formValue = (s: ConfigSetting) => (isBooleanSetting(s) ? isOn(s.Value) : s.Type === 'Range' ? Number(s.Value) : s.Value);
const storedValue = (s: ConfigSetting, v: unknown): string | number => {
  if (isBooleanSetting(s)) {
    const { on, off } = booleanChoices(s);
    return v ? on : off;
  }
  if (s.Type === 'Range') return Number(v);
  return (v ?? '') as string | number;
};

/** The config_json string of PUT /cps/{cp_id}/cpConfig: the settings with the values of the form. */
export function configJsonOf(json: ConfigJson, values: Record<string, unknown>): string {
  const out: ConfigJson = {};
  for (const [name, s] of Object.entries(json)) out[name] = { ...s, Value: name in values ? storedValue(s, values[name]) : s.Value };
  return JSON.stringify(out);
}

interface EditValues {
  description?: string | null;
  ip_address?: string | null;
  mac_address?: string | null;
  makeCurrent?: boolean;
  settings: Record<string, unknown>;
}

/** The config in the popup: a saved one edited, or (copy) a new one prefilled from it, saved only on Save. */
interface Editing {
  row: CpConfigRow;
  copy: boolean;
}

/**
 * Charger view, Configuration tab (spec part 1 §2, §3, §5, §7): the charger's configs, created from a firmware
 * template, duplicated (the create popup, prefilled with the copy), edited in a popup with each setting drawn by
 * its Type, made current (sent to the charger, with its answer per setting) and deleted after 'Are you sure to
 * delete cp config ID: {id}'.
 */
export default function ConfigTab({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const queryClient = useQueryClient();
  const [template, setTemplate] = useState<string>();
  const [editing, setEditing] = useState<Editing>();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<EditValues>();

  const mayCreate = perms.has(createPrivilege('cp_config'));
  const mayEdit = perms.has(editPrivilege('cp_config'));
  const mayDelete = mayEdit && perms.has(P.DELETE);
  const mayAdmin = perms.has(P.CP_CONFIG_ADMIN);

  const configs = useQuery({
    queryKey: ['cpConfig', cpId],
    queryFn: () => api.get<CpConfigRow[] | { status: 'error'; errorCode: number }>(`/cps/${cpId}/cpConfig`),
  });
  const templates = useQuery({
    queryKey: ['fwVerConfig'],
    enabled: mayCreate,
    queryFn: () => api.get<FwVerConfig[]>('/cps/fwVerConfig'),
  });
  const rows = Array.isArray(configs.data) ? configs.data : [];

  const reload = () => queryClient.invalidateQueries({ queryKey: ['cpConfig', cpId] });

  /** Saves; a refused field shows under its setting, a business code or HTTP error as a message. */
  const save = async (body: Record<string, unknown>, onSaved?: (row: CpConfigRow) => void) => {
    setBusy(true);
    try {
      const res = await api.put<SaveAnswer>(`/cps/${cpId}/cpConfig`, body);
      if (res.status !== 'success') {
        void message.error(codeText(res.errorCode, t));
        return;
      }
      const results = Object.values(res.data.last_sent ?? {});
      if (body.current === 1 && results.length)
        void message.success(t('ui.cpConfig.sent', { accepted: results.filter((r) => r === 'Accepted').length, total: results.length }));
      else void message.success(t(body.cp_config_id ? 'msg.saved' : 'ui.cpConfig.created'));
      onSaved?.(res.data);
    } catch (err) {
      const fields = err instanceof ApiError ? (err.body as { fields?: Record<string, string> } | null)?.fields : undefined;
      if (fields && Object.keys(fields).length) {
        if (editing)
          form.setFields(
            Object.entries(fields).map(([name, code]) => ({
              name: name in editing.row.config_json ? ['settings', name] : name,
              errors: [t(`msg.form.${code}`, { defaultValue: t('msg.badRequest') })],
            })),
          );
        void message.error(
          Object.entries(fields)
            .map(([name, code]) => `${settingName(t, name)}: ${t(`msg.form.${code}`, { defaultValue: code })}`)
            .join('; '),
        );
      } else void message.error(errorText(err, t));
    } finally {
      setBusy(false);
      void reload();
    }
  };

  const openEdit = (row: CpConfigRow, copy = false) => {
    form.resetFields();
    const settings: Record<string, unknown> = {};
    for (const [name, s] of Object.entries(row.config_json)) settings[name] = formValue(s);
    form.setFieldsValue({ description: row.description, ip_address: row.ip_address, mac_address: row.mac_address, makeCurrent: false, settings });
    setEditing({ row, copy });
  };

  const submitEdit = async () => {
    if (!editing) return;
    const { row, copy } = editing;
    const v = await form.validateFields();
    const body = {
      // A copy is created from its source (the server keeps the source's secrets left blank), never current.
      ...(copy ? { copy_of: row.cp_config_id } : { cp_config_id: row.cp_config_id }),
      description: v.description ?? null,
      ip_address: v.ip_address ?? null,
      mac_address: v.mac_address ?? null,
      config_json: configJsonOf(row.config_json, v.settings ?? {}),
      // The current config's changes go to the charger at once.
      ...(!copy && (v.makeCurrent || row.current === 1) ? { current: 1 } : {}),
    };
    await save(body, () => setEditing(undefined));
  };

  const makeCurrent = (row: CpConfigRow) =>
    modal.confirm({
      title: t('ui.cpConfig.confirmMakeCurrent', { id: row.cp_config_id }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      onOk: () => save({ cp_config_id: row.cp_config_id, current: 1 }),
    });

  const remove = (row: CpConfigRow) =>
    modal.confirm({
      title: t('ui.cpConfig.confirmDelete', { id: row.cp_config_id }),
      okText: t('ui.actions.delete'),
      okButtonProps: { danger: true },
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        try {
          await api.del(`/cps/${row.cp_config_id}/cpConfig`);
          void message.success(t('msg.deleted'));
        } catch (err) {
          void message.error(errorText(err, t));
        } finally {
          void reload();
        }
      },
    });

  const resultTag = (r: ConfigSendResult | undefined) =>
    r ? <Tag color={RESULT_COLOURS[r]}>{t(`ui.cpConfig.resultLabel.${r}`)}</Tag> : <Tag>{t('ui.cpConfig.notSent')}</Tag>;

  if (configs.data && !Array.isArray(configs.data)) return <div>{codeText(configs.data.errorCode, t)}</div>;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="cp-config">
      {mayCreate && (
        <Space wrap>
          <Select
            aria-label={t('ui.cpConfig.template')}
            placeholder={t('ui.cpConfig.template')}
            style={{ width: 260 }}
            value={template}
            onChange={setTemplate}
            options={(templates.data ?? []).map((tpl) => ({ value: tpl.fw_ver, label: tpl.description ? `${tpl.fw_ver} (${tpl.description})` : tpl.fw_ver }))}
          />
          <Button type="primary" disabled={!template || busy} onClick={() => void save({ fw_ver: template })}>
            {t('ui.cpConfig.createFromTemplate')}
          </Button>
        </Space>
      )}
      <Table<CpConfigRow>
        rowKey="cp_config_id"
        size="small"
        loading={configs.isLoading}
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: t('ui.cpConfig.empty') }}
        expandable={{
          expandedRowRender: (row) => (
            <Table
              size="small"
              rowKey="name"
              pagination={false}
              dataSource={Object.entries(row.config_json).map(([name, s]) => ({ name, s }))}
              columns={[
                { title: t('ui.cpConfig.setting'), dataIndex: 'name', render: (name: string) => settingName(t, name) },
                { title: t('ui.cpConfig.value'), render: (_, r) => (r.s.Type === 'Selection' ? optionLabel(t, r.s.Value) : String(r.s.Value)) },
                { title: t('ui.cpConfig.result'), render: (_, r) => (row.last_sent ? resultTag(row.last_sent[r.name]) : null) },
              ]}
            />
          ),
        }}
        columns={[
          { title: t('ui.cpConfig.id'), dataIndex: 'cp_config_id' },
          { title: t('ui.cpConfig.fwVer'), dataIndex: 'fw_ver' },
          { title: t('ui.cpConfig.description'), dataIndex: 'description' },
          { title: t('ui.cpConfig.current'), dataIndex: 'current', render: (v: number) => (v === 1 ? <Tag color="blue">{t('ui.common.yes')}</Tag> : t('ui.common.no')) },
          { title: t('ui.cpConfig.pending'), dataIndex: 'pending', render: (v: number) => (v === 1 ? <Tag color="orange">{t('ui.common.yes')}</Tag> : t('ui.common.no')) },
          { title: t('ui.cpConfig.updateTime'), dataIndex: 'update_time', render: when },
          {
            title: t('ui.cpConfig.results'),
            render: (_, row) => {
              if (!row.last_sent) return t('ui.cpConfig.notSent');
              const counts = new Map<ConfigSendResult, number>();
              for (const r of Object.values(row.last_sent)) counts.set(r, (counts.get(r) ?? 0) + 1);
              return (
                <Space size={2} wrap data-testid={`cp-config-results-${row.cp_config_id}`}>
                  {[...counts].map(([r, n]) => (
                    <Tag key={r} color={RESULT_COLOURS[r]}>
                      {t(`ui.cpConfig.resultLabel.${r}`)} {n}
                    </Tag>
                  ))}
                  <span style={{ color: '#888' }}>{when(row.sent_dttm)}</span>
                </Space>
              );
            },
          },
          {
            title: '',
            render: (_, row) => (
              <Space size={4} wrap>
                {mayEdit && (
                  <Button size="small" onClick={() => openEdit(row)}>
                    {t('ui.actions.edit')}
                  </Button>
                )}
                {mayCreate && (
                  <Button size="small" disabled={busy} onClick={() => openEdit(row, true)}>
                    {t('ui.cpConfig.duplicate')}
                  </Button>
                )}
                {mayEdit && row.current !== 1 && (
                  <Button size="small" disabled={busy} onClick={() => makeCurrent(row)}>
                    {t('ui.cpConfig.makeCurrent')}
                  </Button>
                )}
                {mayDelete && (
                  <Button size="small" danger onClick={() => remove(row)}>
                    {t('ui.actions.delete')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {perms.has(P.GET_CONFIGURATION) && <OnChargerSection cpId={cpId} />}
      <Modal
        open={!!editing}
        title={editing ? t(editing.copy ? 'ui.cpConfig.copyTitle' : 'ui.cpConfig.editTitle', { id: editing.row.cp_config_id }) : ''}
        width={720}
        okText={t('ui.common.save')}
        cancelText={t('ui.common.cancel')}
        confirmLoading={busy}
        onOk={() => void submitEdit()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        {editing && (
          <Form form={form} layout="horizontal" labelCol={{ span: 10 }} wrapperCol={{ span: 14 }} data-testid="cp-config-form">
            <Form.Item name="description" label={t('ui.cpConfig.description')}>
              <Input maxLength={500} />
            </Form.Item>
            <Form.Item name="ip_address" label={t('ui.cpConfig.ipAddress')}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item name="mac_address" label={t('ui.cpConfig.macAddress')}>
              <Input maxLength={100} />
            </Form.Item>
            {Object.entries(editing.row.config_json).map(([name, s]) => (
              <ConfigSettingItem key={name} name={name} setting={s} saved={s} mayAdmin={mayAdmin} />
            ))}
            {!editing.copy && editing.row.current !== 1 && (
              <Form.Item name="makeCurrent" valuePropName="checked" wrapperCol={{ offset: 10, span: 14 }}>
                <Checkbox>{t('ui.cpConfig.makeCurrentOnSave')}</Checkbox>
              </Form.Item>
            )}
          </Form>
        )}
      </Modal>
    </Space>
  );
}
