import { Progress, Space, Tag, Tooltip } from 'antd';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { MassUpdateProgress, MassUpdateStatus } from '@ev/core';
import { api, ApiError } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { settingName } from '../charger/config-labels.ts';

const STATUS_COLOR: Record<MassUpdateStatus, string> = { sent: 'green', offline: 'default', partial: 'orange', rejected: 'red', failed: 'red' };
const POLL_MS = 1000;
/** Redis unreadable for a moment (503): asked again after this. */
const RETRY_MS = 3000;

function JobTitle({ job, total }: { job?: MassUpdateProgress; total: number }) {
  const { t } = useTranslation();
  return job?.finished
    ? t('ui.massUpdate.finished', { done: job.done, total: job.total })
    : t('ui.massUpdate.progress', { done: job?.done ?? 0, total: job?.total ?? total });
}

/** The progress bar and each charger's outcome, its settings' answers on hover. */
function JobProgress({ job }: { job?: MassUpdateProgress }) {
  const { t } = useTranslation();
  return (
    <div data-testid="mass-update-progress">
      <Progress percent={job ? Math.round((job.done / Math.max(job.total, 1)) * 100) : 0} status={job?.finished ? 'success' : 'active'} />
      <Space wrap size={4} style={{ maxHeight: 240, overflowY: 'auto' }}>
        {(job?.results ?? []).map((r) => (
          <Tooltip key={r.cpId} title={Object.entries(r.keys).map(([k, v]) => `${settingName(t, k)}: ${t(`ui.cpConfig.resultLabel.${v}`)}`).join('; ')}>
            <Tag color={STATUS_COLOR[r.status]} data-testid={`mass-update-result-${r.cpNo}`}>
              {r.cpNo}: {t(`ui.massUpdate.statusLabel.${r.status}`)}
            </Tag>
          </Tooltip>
        ))}
      </Space>
    </div>
  );
}

/**
 * Follows a saved mass update's sending (GET /cp_locs/cp_mass_update/{jobId}) in a notification, once the popup
 * has closed (spec §7: a 200 closes it). Not tied to the list screen: the notification keeps following the job
 * while the operator moves on, until it finishes or they close it.
 */
export function followMassUpdate(notification: NotificationInstance, t: TFunction, jobId: string, total: number): void {
  const key = `mass-update-${jobId}`;
  let closed = false;
  const show = (job?: MassUpdateProgress) =>
    notification.open({
      key,
      title: <JobTitle job={job} total={total} />,
      description: <JobProgress job={job} />,
      duration: 0,
      onClose: () => (closed = true),
    });
  const poll = async () => {
    if (closed) return;
    try {
      const job = await api.get<MassUpdateProgress>(`/cp_locs/cp_mass_update/${jobId}`);
      if (closed) return;
      show(job);
      if (!job.finished) setTimeout(() => void poll(), POLL_MS);
    } catch (err) {
      if (err instanceof ApiError && err.status === 503) setTimeout(() => void poll(), RETRY_MS);
      else if (!closed) notification.error({ key, title: errorText(err, t), duration: 0 });
    }
  };
  show();
  void poll();
}
