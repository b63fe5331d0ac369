import { lazy, Suspense, useState } from 'react';
import { Alert, App, Button, Drawer, Modal, Space, Spin, Typography } from 'antd';
import { LinkOutlined, PoweroffOutlined, ProfileOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { getResource, P, type LmsStopResult } from '@ev/core';
import { errorText, reportOutcome } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { useRecord } from '../../resources/use-record.ts';
import { timeText, type ChargerSlot } from './lms-live.ts';
import { LmsStateTag } from './ChargerCard.tsx';

/** ECharts comes with the pop-view's chunk, only when a session is opened. */
const SessionPopView = lazy(() => import('../session/SessionPopView.tsx'));

/** The session pop-view that the session lists show, for one session id. */
function SessionDetail({ sessionId }: { sessionId: number }) {
  const { t } = useTranslation();
  const perms = usePermissions();
  // cp_sessions_all shows the same sessions to those who may read only it.
  const def = [getResource('cp_sessions')!, getResource('cp_sessions_all')!].find((d) => perms.canRead(d)) ?? getResource('cp_sessions')!;
  const record = useRecord(def, sessionId);
  if (record.isPending) return <Spin />;
  if (record.isError) return <Alert type="error" showIcon title={errorText(record.error, t)} />;
  return (
    <Suspense fallback={<Spin />}>
      <SessionPopView def={def} record={record.data} />
    </Suspense>
  );
}

/**
 * The tool panel of a charger (spec part 1 §2): stop charging (READ_REMOTE_START_CHARGER, after a
 * confirmation; §8 for the answer), restart (closes the panel), the charging point's page in a new
 * window, and the running session's pop-view.
 */
export function ChargerTools({ slot, onClose, stop }: { slot: ChargerSlot | null; onClose: () => void; stop: (cpNo: string) => Promise<LmsStopResult> }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const perms = usePermissions();
  const [busy, setBusy] = useState(false);
  const [sessionId, setSessionId] = useState<number | null>(null);
  const s = slot?.status;
  const mayStop = perms.has(P.REMOTE_START_CHARGER);
  const maySeeCharger = perms.canRead(getResource('cps')!);
  const maySeeSession = [getResource('cp_sessions')!, getResource('cp_sessions_all')!].some((d) => perms.canRead(d));
  const stoppable = s?.status === 'charging' || s?.status === 'queueing';

  const runStop = async (cpNo: string) => {
    setBusy(true);
    try {
      await reportOutcome(stop(cpNo), t('ui.lmsLive.tools.stopped', { cp_no: cpNo }), message, t);
    } finally {
      setBusy(false);
    }
  };

  const confirmStop = (cpNo: string) =>
    modal.confirm({
      title: t('ui.lmsLive.tools.confirmStop', { cp_no: cpNo }),
      okText: t('ui.common.confirm'),
      cancelText: t('ui.common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => void runStop(cpNo),
    });

  // The portal's base path (VITE_BASE_PATH) comes first: the page is a route of the portal.
  const openCharger = (cpId: number) => window.open(`${import.meta.env.BASE_URL}cps/${cpId}`, '_blank', 'noopener');

  return (
    <>
      <Drawer
        open={!!slot}
        onClose={onClose}
        size={360}
        title={slot ? t('ui.lmsLive.tools.title', { cp_no: slot.cp_no }) : ''}
        extra={<LmsStateTag state={s?.status} />}
        data-testid="lms-tools"
        destroyOnHidden
      >
        {slot && (
          <Space orientation="vertical" style={{ width: '100%' }} size="middle">
            {s?.start_tran_at && (
              <Typography.Text type="secondary">
                {t('ui.lmsLive.card.start')}: {timeText(s.start_tran_at)}
              </Typography.Text>
            )}
            {mayStop && (
              <Button block danger icon={<PoweroffOutlined />} loading={busy} disabled={!stoppable} onClick={() => confirmStop(slot.cp_no)}>
                {t('ui.lmsLive.tools.stop')}
              </Button>
            )}
            <Button block icon={<ReloadOutlined />} onClick={onClose}>
              {t('ui.lmsLive.tools.restart')}
            </Button>
            {maySeeCharger && (
              <Button block icon={<LinkOutlined />} onClick={() => openCharger(slot.cp_id)}>
                {t('ui.lmsLive.tools.cpDetail')}
              </Button>
            )}
            {maySeeSession && (
              <Button block icon={<ProfileOutlined />} disabled={!s?.session_id} onClick={() => s?.session_id && setSessionId(s.session_id)}>
                {t('ui.lmsLive.tools.sessionDetail')}
              </Button>
            )}
            {maySeeSession && !s?.session_id && <Typography.Text type="secondary">{t('ui.lmsLive.tools.noSession')}</Typography.Text>}
          </Space>
        )}
      </Drawer>
      <Modal
        open={sessionId !== null}
        onCancel={() => setSessionId(null)}
        footer={null}
        width={860}
        title={t('ui.lmsLive.tools.sessionTitle', { id: sessionId })}
        destroyOnHidden
      >
        {sessionId !== null && <SessionDetail sessionId={sessionId} />}
      </Modal>
    </>
  );
}
