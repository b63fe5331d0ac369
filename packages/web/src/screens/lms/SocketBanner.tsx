import { useEffect, useState } from 'react';
import { Alert, Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LmsSocketState } from './lms-live.ts';

const COLORS: Record<LmsSocketState, string> = { unknown: 'default', connected: 'success', disconnected: 'error' };
const LABELS: Record<LmsSocketState, string> = {
  unknown: 'ui.lmsLive.socket.unknown',
  connected: 'ui.lmsLive.socket.connected',
  disconnected: 'ui.lmsLive.socket.disconnected',
};

/** The socket's state as a tag (spec §4: unknown, connected, disconnected). */
export function SocketStateTag({ state }: { state: LmsSocketState }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[state]} data-testid="lms-socket-state" data-state={state}>
      {t(LABELS[state])}
    </Tag>
  );
}

/** Seconds until `at`, re-rendered each second while there is one (read from the clock, never a stale copy). */
function useCountdown(at: number | null): number | null {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (at === null) return;
    const timer = setInterval(() => setTick((n) => n + 1), 1_000);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - Date.now()) / 1_000));
}

/** Spec part 1 §2, §8: while the socket is down, a banner saying so with a Reconnect button. */
export function DisconnectedBanner({ state, retryAt, onReconnect }: { state: LmsSocketState; retryAt: number | null; onReconnect: () => void }) {
  const { t } = useTranslation();
  const seconds = useCountdown(state === 'disconnected' ? retryAt : null);
  if (state !== 'disconnected') return null;
  return (
    <Alert
      data-testid="lms-disconnected"
      type="error"
      showIcon
      title={t('ui.lmsLive.socket.banner')}
      description={seconds ? t('ui.lmsLive.socket.retryIn', { seconds }) : t('ui.lmsLive.socket.retrying')}
      action={
        <Button danger onClick={onReconnect} data-testid="lms-reconnect">
          {t('ui.lmsLive.socket.reconnect')}
        </Button>
      }
    />
  );
}
