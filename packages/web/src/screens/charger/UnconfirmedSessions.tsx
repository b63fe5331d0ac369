import { useQuery } from '@tanstack/react-query';
import { Alert, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { P, readPrivilege, UNCONFIRMED_REASONS } from '@ev/core';
import { api } from '../../api/client.ts';
import type { Permissions } from '../../app/session.tsx';
import { optionLabel, useOptions } from '../../resources/options.ts';
import { CloseSessionButton } from '../session/CloseSessionButton.tsx';

interface Session {
  session_id: number;
  connector_id: number;
  id_tag: string;
  session_start_time: string;
  unconfirmed: string;
  unconfirmed_since: string;
}

/**
 * Above the charger view: each of its running sessions the charger showed had ended without its
 * StopTransaction (server ocpp/unconfirmed.ts), on its connector, with why and since when, and the
 * close for holders of EDIT_CLOSE_SESSION. Nothing when there is none or the sessions are not the user's to read.
 */
export function UnconfirmedSessions({ cpId, perms }: { cpId: number; perms: Permissions }) {
  const { t } = useTranslation();
  const options = useOptions(['unconfirmed_reason']);
  const sessions = useQuery({
    queryKey: ['cp_sessions', 'unconfirmed', cpId],
    enabled: perms.has(readPrivilege('cp_sessions')),
    queryFn: () =>
      api
        .get<{ dataset: { content: Session[] } }>(
          '/cp_sessions',
          { cp_id: cpId, unconfirmed: UNCONFIRMED_REASONS.join(','), size: 100, sort_by: 'connector_id', order: 'asc' },
          { quiet403: true },
        )
        .then((r) => r.dataset.content),
  });
  if (!sessions.data?.length) return null;
  return (
    <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
      {sessions.data.map((s) => (
        <Alert
          key={s.session_id}
          type="warning"
          showIcon
          data-testid={`unconfirmed-session-${s.session_id}`}
          title={t('ui.session.unconfirmed', {
            connector: s.connector_id,
            id: s.session_id,
            idTag: s.id_tag,
            start: s.session_start_time,
            why: optionLabel(options.unconfirmed_reason, s.unconfirmed),
            since: s.unconfirmed_since,
          })}
          action={
            perms.has(P.CLOSE_SESSION) ? (
              <CloseSessionButton listKey="cp_sessions" sessionId={s.session_id} unconfirmed onDone={() => void sessions.refetch()} />
            ) : undefined
          }
        />
      ))}
    </Space>
  );
}
