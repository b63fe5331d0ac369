import { Alert, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { codeText } from '../../api/errors.ts';

/** GET / POST /cp_locs/{id}/configDrift/read (server ocpp/config-fleet-routes.ts). */
export interface ReadProgress {
  readId: string;
  locId: number;
  total: number;
  done: number;
  read: number;
  failed: number;
  offline: number;
  running: boolean;
  startedAt: string;
  finishedAt: string | null;
  results: { cpId: number; cpNo: string; status: 'waiting' | 'reading' | 'read' | 'failed' | 'offline'; errorCode?: number; message?: string; drift?: number }[];
}

/** A read of all the site's chargers: how far it is, and each charger not read with why. */
export function FleetReadProgress({ read }: { read: ReadProgress }) {
  const { t } = useTranslation();
  const percent = read.total ? Math.round((read.done / read.total) * 100) : 100;
  const notRead = read.results.filter((r) => r.status === 'failed' || r.status === 'offline');
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }} data-testid="config-fleet-progress">
      <Typography.Text data-testid="config-fleet-progress-text">
        {read.running
          ? t('ui.configFleet.readRunning', { done: read.done, total: read.total })
          : t('ui.configFleet.readFinished', { read: read.read, failed: read.failed, offline: read.offline })}
      </Typography.Text>
      <Progress
        percent={percent}
        status={read.running ? 'active' : read.failed ? 'exception' : 'success'}
        success={{ percent: read.total ? Math.round((read.read / read.total) * 100) : 0 }}
      />
      {notRead.length > 0 && (
        <Alert
          type={read.failed ? 'error' : 'warning'}
          showIcon
          title={t('ui.configFleet.readFailures')}
          data-testid="config-fleet-failures"
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20 }}>
              {notRead.map((r) => (
                <li key={r.cpId}>
                  <Typography.Text strong>{r.cpNo}</Typography.Text>
                  {': '}
                  {r.status === 'offline' ? t('ui.configFleet.offlineNotRead') : codeText(r.errorCode, t)}
                  {r.status === 'failed' && r.message && <Typography.Text type="secondary"> ({r.message})</Typography.Text>}
                </li>
              ))}
            </ul>
          }
        />
      )}
    </Space>
  );
}
