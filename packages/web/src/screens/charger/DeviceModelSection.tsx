import { useEffect, useState } from 'react';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Card, Input, Modal, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { editPrivilege, ERROR_CODES, getResource, type ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { useRecord } from '../../resources/use-record.ts';
import { ChargerKeysSection } from './ChargerKeysSection.tsx';

type SetStatus = 'Accepted' | 'Rejected' | 'RebootRequired' | 'UnknownComponent' | 'UnknownVariable' | 'NotSupportedAttributeType';
/** One variable as GET /cps/{id}/deviceModel answers it (server device-model/store.ts). */
export interface DeviceVariable {
  component: string;
  componentInstance: string | null;
  evseId: number | null;
  connectorId: number | null;
  variable: string;
  variableInstance: string | null;
  attributeType: string;
  value: string | null;
  mutability: string | null;
  dataType: string | null;
  unit: string | null;
  valuesList: string | null;
  readAt: string;
}
export interface DeviceModel {
  report: { requestId: number; reportBase: string; requestedAt: string; parts: number; completedAt: string | null } | null;
  variables: DeviceVariable[];
}
type Failed = ActionResult & { status: 'error' };
const failed = (r: object): r is Failed => (r as { status?: string }).status === 'error';

/** The report comes in parts after the charger's answer: read again this often, this many times at most. */
export const POLL_MS = 2_000;
const POLL_LIMIT_MS = 60_000;
const ANSWER_COLOURS: Record<SetStatus, string> = {
  Accepted: 'green', Rejected: 'red', RebootRequired: 'orange', UnknownComponent: 'default', UnknownVariable: 'default', NotSupportedAttributeType: 'default',
};
const when = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm:ss');
const named = (name: string, instance: string | null) => (instance ? `${name} [${instance}]` : name);
const rowKey = (v: DeviceVariable) => [v.component, v.componentInstance, v.evseId, v.connectorId, v.variable, v.variableInstance, v.attributeType].join('|');
const componentOf = (v: DeviceVariable) => [v.component, v.componentInstance, v.evseId, v.connectorId].join('|');
/** Set only through the charger password action, which keeps the server's hash in step (server refuses it here). */
const editable = (v: DeviceVariable) => (v.mutability === 'ReadWrite' || v.mutability === 'WriteOnly') && v.variable !== 'BasicAuthPassword';

/**
 * Charger view, Configuration tab, what the charger itself holds: the 1.6 keys (GetConfiguration), or for a charger
 * that last connected with OCPP 2.0.1 its device model.
 */
export function OnChargerSection({ cpId }: { cpId: number }) {
  const charger = useRecord(getResource('cps')!, cpId, undefined, true) as UseQueryResult<{ ocpp_protocol?: string }>;
  if (!charger.data) return null;
  return charger.data.ocpp_protocol === 'ocpp2.0.1' ? <DeviceModelSection cpId={cpId} /> : <ChargerKeysSection cpId={cpId} />;
}

/**
 * "Device model" (issue 31): Read asks for the charger's base report (GetBaseReport) and follows its parts until the
 * last came; the variables by component; a writable one is set (SetVariables) with the charger's answer shown.
 */
export function DeviceModelSection({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const perms = usePermissions();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [pollUntil, setPollUntil] = useState<number>();
  const [editing, setEditing] = useState<DeviceVariable>();
  const [value, setValue] = useState('');
  const [answer, setAnswer] = useState<SetStatus>();
  const mayChange = perms.has(editPrivilege('cp_config'));

  const charger = useRecord(getResource('cps')!, cpId, undefined, true) as UseQueryResult<{ online_flag: number }>;
  const notConnected = charger.data && charger.data.online_flag !== 1 ? codeText(ERROR_CODES.CP_OFFLINE, t) : undefined;
  const model = useQuery({
    queryKey: ['deviceModel', cpId],
    queryFn: () => api.get<DeviceModel | Failed>(`/cps/${cpId}/deviceModel`),
    refetchInterval: pollUntil ? POLL_MS : false,
  });
  const data = model.data && !failed(model.data) ? model.data : undefined;
  const report = data?.report;

  // Following a read: done when its last part came, given up (incomplete) after the limit.
  useEffect(() => {
    if (!pollUntil || !report) return;
    if (report.completedAt) {
      setPollUntil(undefined);
      void message.success(t('ui.deviceModel.readDone', { count: data!.variables.length }));
    } else if (Date.now() > pollUntil) setPollUntil(undefined);
  }, [report, pollUntil, data, message, t]);

  const read = async () => {
    setBusy(true);
    try {
      const res = await api.post<ActionResult>(`/cps/${cpId}/deviceModel/read`, {});
      if (failed(res)) {
        const said = (res.data as { status?: string } | undefined)?.status;
        void message.error(said ? `${codeText(res.errorCode, t)} (${said})` : codeText(res.errorCode, t));
        return;
      }
      await model.refetch();
      setPollUntil(Date.now() + POLL_LIMIT_MS);
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const send = async () => {
    if (!editing) return;
    setBusy(true);
    try {
      const res = await api.post<{ answer: SetStatus } | Failed>(`/cps/${cpId}/deviceModel/set`, {
        component: editing.component, ...(editing.componentInstance ? { componentInstance: editing.componentInstance } : {}),
        ...(editing.evseId ? { evseId: editing.evseId } : {}), ...(editing.connectorId ? { connectorId: editing.connectorId } : {}),
        variable: editing.variable, ...(editing.variableInstance ? { variableInstance: editing.variableInstance } : {}),
        value,
      });
      if (failed(res)) void message.error(codeText(res.errorCode, t));
      else {
        setAnswer(res.answer);
        if (res.answer === 'Accepted') void queryClient.invalidateQueries({ queryKey: ['deviceModel', cpId] });
      }
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const openEdit = (v: DeviceVariable) => {
    setEditing(v);
    setValue(v.value ?? '');
    setAnswer(undefined);
  };

  if (model.data && failed(model.data)) return <Alert type="error" showIcon title={codeText(model.data.errorCode, t)} />;

  const rows = data?.variables ?? [];
  // Grouped by component: the first row of each component carries its cell over the rows that follow.
  const span = (i: number) => {
    if (i > 0 && componentOf(rows[i - 1]) === componentOf(rows[i])) return 0;
    let n = 1;
    while (i + n < rows.length && componentOf(rows[i + n]) === componentOf(rows[i])) n++;
    return n;
  };
  const readButton = (
    <Tooltip title={notConnected}>
      {/* An icon: the loading state swaps it in place, without the animated spinner (ChargerKeysSection). */}
      <Button type="primary" icon={<CloudDownloadOutlined aria-hidden />} disabled={busy || !!pollUntil || !!notConnected} loading={busy || !!pollUntil} onClick={() => void read()}>
        {t('ui.deviceModel.read')}
      </Button>
    </Tooltip>
  );
  const options = editing?.dataType === 'boolean' ? ['true', 'false'] : editing?.dataType === 'OptionList' ? editing.valuesList?.split(',') : undefined;

  return (
    <Card size="small" title={t('ui.deviceModel.title')} extra={readButton} data-testid="device-model">
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('ui.deviceModel.intro')}</Typography.Text>
        {pollUntil && report && !report.completedAt && (
          <Alert type="info" showIcon data-testid="device-model-reading" title={t('ui.deviceModel.reading', { parts: report.parts })} />
        )}
        {!pollUntil && report && !report.completedAt && (
          <Alert type="warning" showIcon data-testid="device-model-incomplete" title={t('ui.deviceModel.incomplete', { parts: report.parts })} />
        )}
        <Typography.Text type="secondary" data-testid="device-model-read-at">
          {report?.completedAt ? t('ui.deviceModel.lastRead', { at: when(report.completedAt) }) : !report ? t('ui.deviceModel.neverRead') : ''}
        </Typography.Text>
        {rows.length > 0 && (
          <Table<DeviceVariable>
            rowKey={rowKey}
            size="small"
            bordered
            pagination={false}
            dataSource={rows}
            columns={[
              { title: t('ui.deviceModel.component'), render: (_, v) => named(v.component, v.componentInstance), onCell: (_, i) => ({ rowSpan: span(i ?? 0) }) },
              {
                title: t('ui.deviceModel.evse'),
                render: (_, v) => (v.evseId ? (v.connectorId ? `${v.evseId} / ${v.connectorId}` : String(v.evseId)) : ''),
                onCell: (_, i) => ({ rowSpan: span(i ?? 0) }),
              },
              { title: t('ui.deviceModel.variable'), render: (_, v) => named(v.variable, v.variableInstance) },
              {
                title: t('ui.deviceModel.value'),
                render: (_, v) => (v.mutability === 'WriteOnly'
                  ? <Typography.Text type="secondary">{t('ui.deviceModel.writeOnlyValue')}</Typography.Text>
                  : <Typography.Text code>{v.value ?? ''}</Typography.Text>),
              },
              { title: t('ui.deviceModel.unit'), dataIndex: 'unit' },
              {
                title: t('ui.deviceModel.mutability'),
                render: (_, v) => v.mutability && <Tag color={v.mutability === 'ReadOnly' ? 'default' : 'blue'}>{t(`ui.deviceModel.mutabilities.${v.mutability}`, { defaultValue: v.mutability })}</Tag>,
              },
              {
                title: '',
                render: (_, v) => mayChange && editable(v) ? (
                  <Tooltip title={notConnected}>
                    <Button size="small" disabled={busy || !!notConnected} onClick={() => openEdit(v)} aria-label={`${t('ui.deviceModel.edit')} ${v.component} ${v.variable}`}>
                      {t('ui.deviceModel.edit')}
                    </Button>
                  </Tooltip>
                ) : null,
              },
            ]}
          />
        )}
      </Space>
      <Modal
        open={!!editing}
        title={editing ? t('ui.deviceModel.editTitle', { name: `${named(editing.component, editing.componentInstance)}${editing.evseId ? ` (EVSE ${editing.evseId})` : ''} · ${named(editing.variable, editing.variableInstance)}` }) : ''}
        okText={t('ui.deviceModel.send')}
        cancelText={t('ui.deviceModel.close')}
        okButtonProps={{ disabled: busy || !!notConnected || answer !== undefined }}
        confirmLoading={busy}
        onOk={() => void send()}
        onCancel={() => setEditing(undefined)}
        destroyOnHidden
      >
        {editing && (
          <Space orientation="vertical" style={{ width: '100%' }} data-testid="device-model-set">
            {editing.mutability !== 'WriteOnly' && <Typography.Text>{t('ui.deviceModel.currentValue', { value: editing.value ?? '' })}</Typography.Text>}
            {editing.valuesList && <Typography.Text type="secondary">{t('ui.deviceModel.allowed', { values: editing.valuesList })}</Typography.Text>}
            {options ? (
              <Select aria-label={t('ui.deviceModel.newValue')} style={{ width: '100%' }} value={value} disabled={answer !== undefined}
                options={options.map((o) => ({ value: o, label: o }))} onChange={setValue} />
            ) : (
              <Input aria-label={t('ui.deviceModel.newValue')} maxLength={1000} value={value} disabled={answer !== undefined} onChange={(e) => setValue(e.target.value)} />
            )}
            {editing.unit && <Typography.Text type="secondary">{t('ui.deviceModel.unit')}: {editing.unit}</Typography.Text>}
            {answer && (
              <Alert
                type={answer === 'Accepted' ? 'success' : answer === 'RebootRequired' ? 'warning' : 'error'}
                showIcon
                data-testid="device-model-answer"
                title={<span>{t('ui.deviceModel.answer')} <Tag color={ANSWER_COLOURS[answer]}>{answer}</Tag></span>}
                description={t(`ui.deviceModel.answerHint.${answer}`)}
              />
            )}
          </Space>
        )}
      </Modal>
    </Card>
  );
}
