import { useState } from 'react';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { ERROR_CODES, getResource, type ActionResult } from '@ev/core';
import { api } from '../../api/client.ts';
import { codeText, errorText } from '../../api/errors.ts';
import { useRecord } from '../../resources/use-record.ts';

type UpdateType = 'Full' | 'Differential';
/** GET /cps/{id}/localList (server local-list/routes.ts). */
interface ListState {
  expectedVersion: number;
  reportedVersion: number | null;
  reportedAt: string | null;
  pendingSince: string | null;
  pendingChanges: number;
  entries: number;
  lastUpdateType: UpdateType | null;
  lastVersion: number | null;
  lastAnswer: string | null;
  sentAt: string | null;
}
interface SendOutcome {
  updateType: UpdateType;
  listVersion: number;
  answer: 'Accepted' | 'Failed' | 'NotSupported' | 'VersionMismatch';
  entries: number;
  fallbackFrom?: 'Differential';
}
type Failed = ActionResult & { status: 'error' };
const failed = (r: object): r is Failed => (r as { status?: string }).status === 'error';

const ANSWER_COLOURS: Record<string, string> = { Accepted: 'green', Failed: 'red', NotSupported: 'default', VersionMismatch: 'orange' };
const when = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '');

/**
 * Charger view, "Local list" tab (issue 29): the OCPP local authorization list built from the authorised
 * cards — the version the charger reports (and when it was asked) beside the one the portal expects,
 * card changes not on the charger yet, the last send and the charger's answer as it gave it; buttons to
 * send the full list or the changes and to ask the version, disabled with the reason while offline.
 */
export default function LocalListSection({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const charger = useRecord(getResource('cps')!, cpId, undefined, true) as UseQueryResult<{ online_flag: number }>;
  const notConnected = charger.data && charger.data.online_flag !== 1 ? codeText(ERROR_CODES.CP_OFFLINE, t) : undefined;
  const query = useQuery({ queryKey: ['localList', cpId], queryFn: () => api.get<ListState | Failed>(`/cps/${cpId}/localList`) });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['localList', cpId] });

  const run = async (call: () => Promise<void>) => {
    setBusy(true);
    try {
      await call();
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setBusy(false);
      refresh();
    }
  };
  const send = (updateType: UpdateType) => run(async () => {
    const res = await api.post<SendOutcome | Failed>(`/cps/${cpId}/localList/send`, { updateType });
    if (failed(res)) return void message.error(codeText(res.errorCode, t));
    if (res.fallbackFrom) void message.warning(t('ui.localList.fallback'));
    const text = t('ui.localList.sent', { answer: res.answer, version: res.listVersion, count: res.entries });
    void (res.answer === 'Accepted' ? message.success(text) : message.error(`${text} ${t(`ui.localList.answerHint.${res.answer}`)}`));
  });
  const check = () => run(async () => {
    const res = await api.post<{ listVersion: number } | Failed>(`/cps/${cpId}/localList/version`, {});
    if (failed(res)) return void message.error(codeText(res.errorCode, t));
    void message.success(t('ui.localList.versionAnswer', { version: res.listVersion }));
  });

  if (query.data && failed(query.data)) return <Alert type="error" showIcon title={codeText(query.data.errorCode, t)} />;
  const data = query.data;
  const reported = (v: number) => (v === -1 ? t('ui.localList.noList', { version: v }) : v === 0 ? t('ui.localList.emptyList', { version: v }) : String(v));
  const mismatch = data?.reportedVersion != null && data.reportedVersion !== data.expectedVersion;
  const button = (label: string, onClick: () => void, testId: string, primary = false) => (
    <Tooltip title={notConnected}>
      <Button type={primary ? 'primary' : 'default'} disabled={busy || !!notConnected} onClick={onClick} data-testid={testId}>{label}</Button>
    </Tooltip>
  );

  return (
    <Card size="small" title={t('ui.localList.title')} loading={query.isLoading} data-testid="local-list">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('ui.localList.intro')}</Typography.Text>
        {data && (
          <Descriptions size="small" bordered column={1}>
            <Descriptions.Item label={t('ui.localList.expected')}>
              <span data-testid="local-list-expected">{data.expectedVersion}</span>{' '}
              <Typography.Text type="secondary">{t('ui.localList.expectedHint')}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('ui.localList.reported')}>
              {data.reportedVersion == null ? t('ui.localList.notAsked') : (
                <Space wrap>
                  <span data-testid="local-list-reported">{reported(data.reportedVersion)}</span>
                  <Typography.Text type="secondary">{t('ui.localList.reportedAt', { at: when(data.reportedAt) })}</Typography.Text>
                  {mismatch && <Tag color="orange">{t('ui.localList.mismatch')}</Tag>}
                </Space>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('ui.localList.entries')}>{data.entries}</Descriptions.Item>
            <Descriptions.Item label={t('ui.localList.pending')}>
              <Space wrap data-testid="local-list-pending">
                {data.pendingChanges ? <Tag color="orange">{data.pendingChanges}</Tag> : <Tag color="green">{t('ui.localList.upToDate')}</Tag>}
                {data.pendingSince && <Typography.Text type="secondary">{t('ui.localList.pendingSince', { at: when(data.pendingSince) })}</Typography.Text>}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('ui.localList.lastSend')}>
              {data.lastUpdateType ? (
                <Space wrap data-testid="local-list-last">
                  {t('ui.localList.lastSendValue', { type: t(`ui.localList.updateType.${data.lastUpdateType}`), version: data.lastVersion, at: when(data.sentAt) })}
                  <span>{t('ui.localList.answer')} <Tag color={ANSWER_COLOURS[data.lastAnswer ?? ''] ?? 'red'}>{data.lastAnswer}</Tag></span>
                  {data.lastAnswer && t(`ui.localList.answerHint.${data.lastAnswer}`, { defaultValue: '' })}
                </Space>
              ) : t('ui.localList.notSent')}
            </Descriptions.Item>
          </Descriptions>
        )}
        <Space wrap>
          {button(t('ui.localList.sendFull'), () => modal.confirm({
            title: t('ui.localList.confirmFull', { count: data?.entries ?? 0 }),
            okText: t('ui.common.confirm'),
            cancelText: t('ui.common.cancel'),
            onOk: () => void send('Full'),
          }), 'local-list-send-full', true)}
          {button(t('ui.localList.sendDifferential'), () => void send('Differential'), 'local-list-send-differential')}
          {button(t('ui.localList.checkVersion'), () => void check(), 'local-list-check')}
        </Space>
      </Space>
    </Card>
  );
}
