import { useState } from 'react';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Input, Modal, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { editPrivilege, ERROR_CODES, getResource, type ActionResult } from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { useRecord } from '../../resources/use-record.ts';
import { settingName } from './config-labels.ts';

type ChangeStatus = 'Accepted' | 'Rejected' | 'RebootRequired' | 'NotSupported';
interface Wanted {
  setting: string;
  value: string;
}
/** GET / POST /cps/{id}/getConfiguration (server ocpp/config-readback.ts). */
interface Readback {
  configurationKey: { key: string; readonly: boolean; value: string | null; readAt: string; wanted: Wanted | null; drift: boolean }[];
  unknownKey: string[];
  readAt: string | null;
  drift: { setting: string; key: string; wanted: string; actual: string | null; reason: 'differs' | 'unknown' }[];
  vendorSettings: { setting: string; wanted: string; via: 'DataTransfer'; lastAnswer: string | null; sentAt: string | null }[];
}
type Failed = ActionResult & { status: 'error' };
const failed = (r: object): r is Failed => (r as { status?: string }).status === 'error';

/** One line of the table: a key the charger has, or one it does not know. */
interface KeyRow {
  key: string;
  known: boolean;
  readonly: boolean;
  value: string | null;
  wanted: Wanted | null;
  drift: 'differs' | 'unknown' | null;
}

export const ANSWER_COLOURS: Record<ChangeStatus, string> = { Accepted: 'green', Rejected: 'red', RebootRequired: 'orange', NotSupported: 'default' };
const when = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '');

/**
 * Charger view, Configuration tab, "Configuration on the charger" (issue 29): the charger's own keys read
 * (GetConfiguration), beside what its current configuration wants, each difference marked; a writable key is
 * set (ChangeConfiguration) with the charger's answer shown as it gave it. Vendor settings go as DataTransfer
 * and are never shown as applied.
 */
export function ChargerKeysSection({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [onlyDrift, setOnlyDrift] = useState(false);
  const [setting, setSetting] = useState<KeyRow>();
  const [value, setValue] = useState('');
  const [answer, setAnswer] = useState<ChangeStatus>();
  const mayChange = perms.has(editPrivilege('cp_config'));

  const charger = useRecord(getResource('cps')!, cpId, undefined, true) as UseQueryResult<{ online_flag: number }>;
  const notConnected = charger.data && charger.data.online_flag !== 1 ? codeText(ERROR_CODES.CP_OFFLINE, t) : undefined;
  const readback = useQuery({
    queryKey: ['getConfiguration', cpId],
    queryFn: () => api.get<Readback | Failed>(`/cps/${cpId}/getConfiguration`),
  });
  const data = readback.data && !failed(readback.data) ? readback.data : undefined;

  /** Reads all keys, or the named ones (after a Set, that key). */
  const read = async (keys?: string[]) => {
    setBusy(true);
    try {
      const res = await api.post<Readback | Failed>(`/cps/${cpId}/getConfiguration`, keys ? { keys } : {});
      if (failed(res)) void message.error(codeText(res.errorCode, t));
      else if (!keys) void message.success(t('ui.configReadback.readDone', { count: res.configurationKey.length }));
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: ['getConfiguration', cpId] });
    }
  };

  const send = async () => {
    if (!setting) return;
    setBusy(true);
    try {
      const res = await api.post<{ key: string; answer: ChangeStatus } | Failed>(`/cps/${cpId}/changeConfiguration`, { key: setting.key, value });
      if (failed(res)) void message.error(codeText(res.errorCode, t));
      else {
        setAnswer(res.answer);
        // What the charger has now: read that key back.
        if (res.answer === 'Accepted' || res.answer === 'RebootRequired') void read([setting.key]);
      }
    } catch (err) {
      const fields = err instanceof ApiError ? (err.body as { fields?: Record<string, string> } | null)?.fields : undefined;
      void message.error(fields?.key ? `${setting.key}: ${t(`msg.form.${fields.key}`, { defaultValue: fields.key })}` : errorText(err, t));
    } finally {
      setBusy(false);
    }
  };

  const openSet = (row: KeyRow) => {
    setSetting(row);
    setValue(row.wanted?.value ?? row.value ?? '');
    setAnswer(undefined);
  };

  if (readback.data && failed(readback.data)) return <Alert type="error" showIcon title={codeText(readback.data.errorCode, t)} />;

  const driftOf = new Map(data?.drift.map((d) => [d.key, d.reason]));
  const rows: KeyRow[] = [
    ...(data?.configurationKey ?? []).map((k) => ({ ...k, known: true, drift: k.drift ? ('differs' as const) : null })),
    ...(data?.unknownKey ?? []).map((key) => ({
      key, known: false, readonly: true, value: null, wanted: null, drift: driftOf.get(key) === 'unknown' ? ('unknown' as const) : null,
    })),
  ];
  // An unknown key the configuration wants: its setting comes from the drift list.
  for (const r of rows) if (!r.known && r.drift) r.wanted = (({ setting: s, wanted }) => ({ setting: s, value: wanted }))(data!.drift.find((d) => d.key === r.key)!);
  const shown = onlyDrift ? rows.filter((r) => r.drift) : rows;
  const readButton = (
    <Tooltip title={notConnected}>
      {/* With an icon the loading state swaps it in place: antd's animated spinner (no icon) could stay in the
          button's name ("loading …") when its leave transition never ended. */}
      <Button type="primary" icon={<CloudDownloadOutlined aria-hidden />} disabled={busy || !!notConnected} loading={busy && !setting} onClick={() => void read()}>
        {t('ui.configReadback.read')}
      </Button>
    </Tooltip>
  );

  return (
    <Card size="small" title={t('ui.configReadback.title')} extra={readButton} data-testid="charger-keys">
      <Space orientation="vertical" size="small" style={{ width: '100%' }}>
        <Space wrap>
          <Typography.Text type="secondary" data-testid="charger-keys-read-at">
            {data?.readAt ? t('ui.configReadback.lastRead', { at: when(data.readAt) }) : t('ui.configReadback.neverRead')}
          </Typography.Text>
          {data?.readAt && (
            <Tag color={data.drift.length ? 'red' : 'green'} data-testid="charger-keys-drift-count">
              {data.drift.length ? t('ui.configReadback.driftCount', { count: data.drift.length }) : t('ui.configReadback.noDrift')}
            </Tag>
          )}
          {data?.readAt && (
            <Checkbox checked={onlyDrift} onChange={(e) => setOnlyDrift(e.target.checked)}>
              {t('ui.configReadback.onlyDrift')}
            </Checkbox>
          )}
        </Space>
        {data?.readAt && (
          <Table<KeyRow>
            rowKey="key"
            size="small"
            loading={readback.isFetching}
            dataSource={shown}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            columns={[
              { title: t('ui.configReadback.key'), dataIndex: 'key' },
              { title: t('ui.configReadback.value'), render: (_, r) => (r.known ? <Typography.Text code>{r.value ?? ''}</Typography.Text> : '—') },
              { title: t('ui.configReadback.readonly'), render: (_, r) => (r.known ? (r.readonly ? <Tag>{t('ui.common.yes')}</Tag> : t('ui.common.no')) : '') },
              {
                title: t('ui.configReadback.wanted'),
                render: (_, r) => r.wanted && <span>{settingName(t, r.wanted.setting)}: <Typography.Text code>{r.wanted.value}</Typography.Text></span>,
              },
              {
                title: t('ui.configReadback.drift'),
                render: (_, r) =>
                  r.drift ? (
                    <Tag color="red" data-testid={`drift-${r.key}`}>{t(`ui.configReadback.${r.drift}`)}</Tag>
                  ) : !r.known ? (
                    <Tag>{t('ui.configReadback.unknown')}</Tag>
                  ) : r.wanted ? (
                    <Tag color="green">{t('ui.configReadback.same')}</Tag>
                  ) : null,
              },
              {
                title: '',
                render: (_, r) =>
                  mayChange && r.known && !r.readonly ? (
                    <Tooltip title={notConnected}>
                      <Button size="small" disabled={busy || !!notConnected} onClick={() => openSet(r)} aria-label={`${t('ui.configReadback.set')} ${r.key}`}>
                        {t('ui.configReadback.set')}
                      </Button>
                    </Tooltip>
                  ) : null,
              },
            ]}
          />
        )}
        {!!data?.vendorSettings.length && (
          <>
            <Typography.Title level={5} style={{ marginTop: 8 }}>{t('ui.configReadback.vendorTitle')}</Typography.Title>
            <Alert type="info" showIcon title={t('ui.configReadback.vendorNote')} />
            <Table
              rowKey="setting"
              size="small"
              pagination={false}
              dataSource={data.vendorSettings}
              data-testid="vendor-settings"
              columns={[
                { title: t('ui.configReadback.setting'), render: (_, v) => <span>{settingName(t, v.setting)} <Tag>{t('ui.configReadback.vendorSetting')}</Tag></span> },
                { title: t('ui.configReadback.wanted'), render: (_, v) => <Typography.Text code>{v.wanted}</Typography.Text> },
                {
                  title: t('ui.configReadback.lastAnswer'),
                  render: (_, v) => (v.lastAnswer ? <span>{v.lastAnswer} <Typography.Text type="secondary">{when(v.sentAt)}</Typography.Text></span> : t('ui.configReadback.notSent')),
                },
              ]}
            />
          </>
        )}
      </Space>
      <Modal
        open={!!setting}
        title={setting ? t('ui.configReadback.setTitle', { key: setting.key }) : ''}
        okText={t('ui.configReadback.send')}
        cancelText={t('ui.configReadback.close')}
        okButtonProps={{ disabled: busy || !!notConnected || answer !== undefined }}
        confirmLoading={busy}
        onOk={() => modal.confirm({
          title: t('ui.configReadback.confirmSet', { key: setting?.key, value }),
          okText: t('ui.common.confirm'),
          cancelText: t('ui.common.cancel'),
          onOk: () => void send(),
        })}
        onCancel={() => setSetting(undefined)}
        destroyOnHidden
      >
        {setting && (
          <Space orientation="vertical" style={{ width: '100%' }} data-testid="set-key">
            <Typography.Text>{t('ui.configReadback.currentValue', { value: setting.value ?? '' })}</Typography.Text>
            <Input aria-label={t('ui.configReadback.newValue')} maxLength={500} value={value} disabled={answer !== undefined} onChange={(e) => setValue(e.target.value)} />
            {answer && (
              <Alert
                type={answer === 'Accepted' ? 'success' : answer === 'RebootRequired' ? 'warning' : 'error'}
                showIcon
                data-testid="set-key-answer"
                title={<span>{t('ui.configReadback.answer')} <Tag color={ANSWER_COLOURS[answer]}>{answer}</Tag></span>}
                description={t(`ui.configReadback.answerHint.${answer}`)}
              />
            )}
          </Space>
        )}
      </Modal>
    </Card>
  );
}
