import { useCallback, useEffect, useRef, useState } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LmsClientMessage, LmsLogEntry, LmsServerMessage, LmsStopResult } from '@ev/core';
import { socketUrl } from '../../api/client.ts';
import { getToken } from '../../api/token.ts';
import { applyStatusUpdate, EMPTY_LIVE, reconnectDelay, refreshInterval, type LmsLive, type LmsSocketState } from './lms-live.ts';

export interface LmsSocketOptions {
  /** Poll all_status_update at the refresh interval and keep the chargers' statuses (the dashboard). */
  statuses?: boolean;
  /** Subscribe to the realtime log; each batch is handed over as it arrives. */
  onLog?: (entries: LmsLogEntry[]) => void;
}

export interface LmsSocket {
  state: LmsSocketState;
  live: LmsLive;
  /** The refresh interval in force (spec §9). */
  intervalMs: number;
  /** When the last status update arrived (ms since epoch). */
  updatedAt: number | null;
  /** When the next automatic reconnection is due, while disconnected. */
  retryAt: number | null;
  reconnect: () => void;
  /** Asks the server to stop the charger's session; rejects when the socket is down or no answer comes. */
  stop: (cpNo: string) => Promise<LmsStopResult>;
}

const STOP_TIMEOUT_MS = 30_000;
const NOTIFICATION_KEY = 'lms-socket';

interface PendingStop {
  resolve: (r: LmsStopResult) => void;
  reject: (e: Error) => void;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * The live LMS socket ({ws base}/lms/status, spec part 1 §4, §7, §8, §9), shared by the dashboard
 * and the realtime log. On close or error: disconnected, statuses cleared, one notification per
 * outage, and a new attempt on a timer (5 s, doubling up to a minute) or at once with reconnect().
 */
export function useLmsSocket({ statuses = false, onLog }: LmsSocketOptions): LmsSocket {
  const { t } = useTranslation();
  const { notification } = App.useApp();
  const [state, setState] = useState<LmsSocketState>('unknown');
  const [live, setLive] = useState<LmsLive>(EMPTY_LIVE);
  const [intervalMs, setIntervalMs] = useState(refreshInterval(null));
  const [updatedAt, setUpdatedAt] = useState<number | null>(null);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  // Bumped by reconnect(): the effect closes the old socket and opens a new one with no backoff.
  const [generation, setGeneration] = useState(0);
  const socket = useRef<WebSocket | null>(null);
  const pending = useRef(new Map<string, PendingStop>());
  // Latest callbacks and texts without reopening the socket when a page re-renders.
  const onLogRef = useRef(onLog);
  onLogRef.current = onLog;
  const tRef = useRef(t);
  tRef.current = t;
  const notificationRef = useRef(notification);
  notificationRef.current = notification;
  const wantsLog = !!onLog;

  useEffect(() => {
    let disposed = false;
    let attempt = 0;
    let notified = false;
    let poll: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let every = refreshInterval(null);

    const failPending = (why: string) => {
      for (const p of pending.current.values()) {
        clearTimeout(p.timer);
        p.reject(new Error(why));
      }
      pending.current.clear();
    };

    const connect = () => {
      if (disposed) return;
      setRetryAt(null);
      const ws = new WebSocket(socketUrl(`/lms/status?token=${encodeURIComponent(getToken() ?? '')}`));
      socket.current = ws;
      let errored = false;
      const send = (msg: LmsClientMessage) => {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
      };
      const tick = () => {
        send({ type: 'all_status_update' });
        poll = setTimeout(tick, every);
      };

      ws.onopen = () => {
        attempt = 0;
        notified = false;
        notificationRef.current.destroy(NOTIFICATION_KEY);
        setState('connected');
        if (statuses) tick();
        if (wantsLog) send({ type: 'subscribe_log' });
      };
      ws.onmessage = (event) => {
        let msg: LmsServerMessage;
        try {
          msg = JSON.parse(String(event.data)) as LmsServerMessage;
        } catch {
          return;
        }
        if (msg.type === 'status_update') {
          if (!statuses) return;
          setLive((prev) => applyStatusUpdate(prev, msg));
          setUpdatedAt(Date.now());
          const next = refreshInterval(msg.interval_ms);
          if (next !== every) {
            every = next;
            setIntervalMs(next);
            clearTimeout(poll);
            poll = setTimeout(tick, every);
          }
        } else if (msg.type === 'stop_charging_session_result') {
          const p = pending.current.get(msg.cpNo);
          if (!p) return;
          clearTimeout(p.timer);
          pending.current.delete(msg.cpNo);
          p.resolve(msg);
          // The stop changes statuses at once: ask rather than wait for the next poll.
          if (statuses) send({ type: 'all_status_update' });
        } else if (msg.type === 'lms_log') {
          onLogRef.current?.(msg.entries ?? []);
        } else if (msg.type === 'error') {
          notificationRef.current.error({ key: `${NOTIFICATION_KEY}-message`, title: tRef.current('ui.lmsLive.socket.error'), description: msg.message });
        }
      };
      ws.onerror = () => {
        errored = true;
      };
      ws.onclose = () => {
        if (disposed || socket.current !== ws) return;
        clearTimeout(poll);
        setState('disconnected');
        // Spec §4: statuses are cleared, not left showing what may no longer be true.
        setLive(EMPTY_LIVE);
        setUpdatedAt(null);
        failPending('socket closed');
        if (!notified) {
          notified = true;
          const tr = tRef.current;
          notificationRef.current.error({
            key: NOTIFICATION_KEY,
            title: tr(errored ? 'ui.lmsLive.socket.error' : 'ui.lmsLive.socket.connectionError'),
            description: tr('ui.lmsLive.socket.errorText'),
          });
        }
        const delay = reconnectDelay(attempt++);
        setRetryAt(Date.now() + delay);
        retry = setTimeout(connect, delay);
      };
    };

    connect();
    return () => {
      disposed = true;
      clearTimeout(poll);
      clearTimeout(retry);
      failPending('socket closed');
      const ws = socket.current;
      socket.current = null;
      ws?.close();
    };
  }, [generation, statuses, wantsLog]);

  const reconnect = useCallback(() => setGeneration((g) => g + 1), []);

  const stop = useCallback(
    (cpNo: string) =>
      new Promise<LmsStopResult>((resolve, reject) => {
        const ws = socket.current;
        if (!ws || ws.readyState !== WebSocket.OPEN) {
          reject(new Error('socket not open'));
          return;
        }
        const earlier = pending.current.get(cpNo);
        if (earlier) {
          clearTimeout(earlier.timer);
          earlier.reject(new Error('superseded'));
        }
        const timer = setTimeout(() => {
          pending.current.delete(cpNo);
          reject(new Error('no answer'));
        }, STOP_TIMEOUT_MS);
        pending.current.set(cpNo, { resolve, reject, timer });
        ws.send(JSON.stringify({ type: 'stop_charging_session', cpNo } satisfies LmsClientMessage));
      }),
    [],
  );

  return { state, live, intervalMs, updatedAt, retryAt, reconnect, stop };
}
