import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Space, Spin, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { editPrivilege, FIRMWARE_JOB_STATES, type FirmwareJobState } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { JOB_COLOURS, shownTime, STATE_COLOURS } from './states.ts';

/** GET /firmware_jobs/{id}/progress (server firmware/routes.ts). */
interface Progress {
  jobId: number;
  status: 'Running' | 'Finished' | 'Stopped';
  stopReason: 'user' | 'failures' | null;
  version: string;
  total: number;
  counts: Record<FirmwareJobState, number>;
  chargers: { cpId: number; cpNo: string; state: FirmwareJobState; stateAt: string; sentAt: string | null; reportedVersion: string | null }[];
}

/** How often a running job's progress is read again. */
const POLL_MS = 3_000;

/**
 * A firmware job's progress (issue 29), in its view page: chargers per state, each charger's state and since
 * when, the version it reported at its next boot; read again every few seconds while the job runs. Stop job
 * (EDIT_FIRMWARE_JOBS) after a confirmation: chargers not yet sent to are not sent to.
 */
export default function JobProgress({ jobId }: { jobId: number }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const progress = useQuery({
    queryKey: ['firmware_jobs', 'progress', jobId],
    queryFn: () => api.get<Progress>(`/firmware_jobs/${jobId}/progress`),
    refetchInterval: (q) => (q.state.data?.status === 'Running' ? POLL_MS : false),
  });
  if (progress.isPending) return <Spin />;
  if (progress.isError) return <Alert type="error" showIcon title={errorText(progress.error, t)} />;
  const p = progress.data;

  const stop = () =>
    modal.confirm({
      title: t('ui.firmware.confirmStop', { id: jobId }),
      okText: t('ui.common.confirm'),
      okButtonProps: { danger: true },
      cancelText: t('ui.common.cancel'),
      onOk: async () => {
        try {
          await api.post(`/firmware_jobs/${jobId}/stop`);
          message.success(t('ui.firmware.stopped'));
        } catch (err) {
          message.error(errorText(err, t));
        }
        await progress.refetch();
      },
    });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="firmware-progress">
      <Card
        size="small"
        title={`${t('ui.firmware.progress')} · ${t('ui.firmware.version')} ${p.version}`}
        extra={
          p.status === 'Running' && perms.has(editPrivilege('firmware_jobs')) ? (
            <Button danger onClick={stop} data-testid="firmware-stop">
              {t('ui.firmware.stop')}
            </Button>
          ) : null
        }
      >
        <Space wrap>
          <Tag color={JOB_COLOURS[p.status]} data-testid="firmware-job-status">
            {t(`ui.firmware.jobStatus.${p.status}`)}
          </Tag>
          {p.stopReason && <Typography.Text type="warning">{t(`ui.firmware.stopReason.${p.stopReason}`)}</Typography.Text>}
          <Typography.Text>{t('ui.firmware.total', { count: p.total })}</Typography.Text>
          {p.status === 'Running' && <Typography.Text type="secondary">{t('ui.firmware.live')}</Typography.Text>}
        </Space>
        <div style={{ marginTop: 12 }} data-testid="firmware-counts">
          {FIRMWARE_JOB_STATES.filter((s) => p.counts[s] > 0).map((s) => (
            <Tag key={s} color={STATE_COLOURS[s]} data-testid={`firmware-count-${s}`}>
              {t('ui.firmware.count', { state: t(`ui.firmware.states.${s}`), n: p.counts[s] })}
            </Tag>
          ))}
        </div>
      </Card>
      <Table
        rowKey="cpId"
        size="small"
        pagination={p.chargers.length > 50 ? { pageSize: 50 } : false}
        dataSource={p.chargers}
        columns={[
          { key: 'cpNo', title: t('ui.firmware.charger'), dataIndex: 'cpNo' },
          {
            key: 'state',
            title: t('ui.firmware.state'),
            render: (_, c) => (
              <Tag color={STATE_COLOURS[c.state]} title={c.state} data-testid={`firmware-state-${c.cpNo}`}>
                {t(`ui.firmware.states.${c.state}`)}
              </Tag>
            ),
          },
          { key: 'since', title: t('ui.firmware.since'), render: (_, c) => shownTime(c.stateAt) },
          { key: 'sentAt', title: t('ui.firmware.sentAt'), render: (_, c) => shownTime(c.sentAt) },
          { key: 'version', title: t('ui.firmware.reportedVersion'), render: (_, c) => c.reportedVersion ?? '-' },
        ]}
      />
    </Space>
  );
}
