import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Empty, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { settingName } from '../charger/config-labels.ts';
import { FleetReadProgress, type ReadProgress } from './FleetReadProgress.tsx';

/** GET /cp_locs/{id}/configDrift (server ocpp/config-fleet.ts). */
interface Drift {
  setting: string;
  key: string;
  wanted: string;
  actual: string | null;
  reason: 'differs' | 'unknown';
}
interface FleetCharger {
  cpId: number;
  cpNo: string;
  name: string;
  online: boolean;
  since: string | null;
  hasConfig: boolean;
  readAt: string | null;
  keysRead: number;
  drift: Drift[];
  unknownKey: string[];
}
interface Fleet {
  locId: number;
  chargers: FleetCharger[];
  summary: { chargers: number; read: number; neverRead: number; withDrift: number; offline: number };
}

const when = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm:ss') : '');
/** How often a running read's progress is asked for. */
const POLL_MS = 1000;

/**
 * The configuration fleet view of one site (issue 29): each charger's keys that differ from its
 * configuration at its last read, and a read of all the site's connected chargers with its progress.
 */
export function FleetDrift({ locId }: { locId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [onlyDrift, setOnlyDrift] = useState(false);
  const [starting, setStarting] = useState(false);

  const fleet = useQuery({ queryKey: ['configDrift', locId], queryFn: () => api.get<Fleet>(`/cp_locs/${locId}/configDrift`) });
  const progress = useQuery({
    queryKey: ['configDriftRead', locId],
    queryFn: () => api.get<{ read: ReadProgress | null }>(`/cp_locs/${locId}/configDrift/read`).then((r) => r.read),
    refetchInterval: (q) => (q.state.data?.running ? POLL_MS : false),
  });
  const read = progress.data ?? null;

  // When a read ends, the drift is the new one.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && read && !read.running) void queryClient.invalidateQueries({ queryKey: ['configDrift', locId] });
    wasRunning.current = !!read?.running;
  }, [read, locId, queryClient]);

  const readAll = async () => {
    setStarting(true);
    try {
      const started = await api.post<ReadProgress>(`/cp_locs/${locId}/configDrift/read`);
      queryClient.setQueryData(['configDriftRead', locId], started);
      wasRunning.current = started.running;
      void progress.refetch();
    } catch (err) {
      void message.error(errorText(err, t));
    } finally {
      setStarting(false);
    }
  };

  if (fleet.isError) return <Alert type="error" showIcon title={errorText(fleet.error, t)} />;
  const data = fleet.data;
  const onlineCount = data ? data.summary.chargers - data.summary.offline : 0;
  const noneOnline = data && !onlineCount ? t('ui.configFleet.noneOnline') : undefined;
  const shown = (data?.chargers ?? []).filter((c) => !onlyDrift || c.drift.length);

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="config-fleet">
      <Space wrap align="center">
        <Tooltip title={noneOnline ?? t('ui.configFleet.readAllHint')}>
          <Button type="primary" loading={starting} disabled={!data || !!noneOnline || !!read?.running} onClick={() => void readAll()} data-testid="config-fleet-read-all">
            {t('ui.configFleet.readAll')}
          </Button>
        </Tooltip>
        {data && (
          <Space wrap size={4} data-testid="config-fleet-summary">
            <Tag>{t('ui.configFleet.summary.chargers', { count: data.summary.chargers })}</Tag>
            <Tag color="blue">{t('ui.configFleet.summary.read', { count: data.summary.read })}</Tag>
            {data.summary.neverRead > 0 && <Tag>{t('ui.configFleet.summary.neverRead', { count: data.summary.neverRead })}</Tag>}
            <Tag color={data.summary.withDrift ? 'red' : 'green'}>{t('ui.configFleet.summary.withDrift', { count: data.summary.withDrift })}</Tag>
            {data.summary.offline > 0 && <Tag color="default">{t('ui.configFleet.summary.offline', { count: data.summary.offline })}</Tag>}
          </Space>
        )}
        <Checkbox checked={onlyDrift} onChange={(e) => setOnlyDrift(e.target.checked)} data-testid="config-fleet-only-drift">
          {t('ui.configFleet.onlyDrift')}
        </Checkbox>
      </Space>
      {read && <FleetReadProgress read={read} />}
      {data && !data.chargers.length ? (
        <Empty description={t('ui.configFleet.empty')} />
      ) : (
        <Table<FleetCharger>
          rowKey="cpId"
          size="small"
          loading={fleet.isPending || fleet.isFetching}
          dataSource={shown}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          data-testid="config-fleet-table"
          columns={[
            {
              title: t('ui.configFleet.charger'),
              render: (_, c) => (
                <Space orientation="vertical" size={0}>
                  <Link to={`/cps/${c.cpId}`}>{c.cpNo}</Link>
                  {c.name !== c.cpNo && <Typography.Text type="secondary">{c.name}</Typography.Text>}
                </Space>
              ),
            },
            {
              title: t('ui.configFleet.state'),
              render: (_, c) => (
                <Space orientation="vertical" size={0}>
                  <Tag color={c.online ? 'green' : 'default'}>{t(c.online ? 'ui.configFleet.online' : 'ui.configFleet.offline')}</Tag>
                  {c.since && <Typography.Text type="secondary">{t('ui.configFleet.since', { at: when(c.since) })}</Typography.Text>}
                </Space>
              ),
            },
            {
              title: t('ui.configFleet.lastRead'),
              render: (_, c) => (c.readAt ? when(c.readAt) : <Typography.Text type="secondary">{t('ui.configFleet.neverRead')}</Typography.Text>),
            },
            {
              title: t('ui.configFleet.drift'),
              render: (_, c) => <DriftCell charger={c} />,
            },
            {
              title: t('ui.configFleet.unknownKeys'),
              render: (_, c) => (
                <Space wrap size={4}>
                  {c.unknownKey.map((k) => <Tag key={k}>{k}</Tag>)}
                </Space>
              ),
            },
          ]}
        />
      )}
    </Space>
  );
}

/** A charger's keys that differ, as "setting (key): wanted → actual"; what is there to say when none. */
function DriftCell({ charger: c }: { charger: FleetCharger }) {
  const { t } = useTranslation();
  if (!c.hasConfig) return <Typography.Text type="secondary">{t('ui.configFleet.noConfig')}</Typography.Text>;
  if (!c.readAt) return <Typography.Text type="secondary">{t('ui.configFleet.notJudged')}</Typography.Text>;
  if (!c.drift.length) return <Tag color="green">{t('ui.configFleet.noDrift')}</Tag>;
  return (
    <Space orientation="vertical" size={2} data-testid={`config-fleet-drift-${c.cpNo}`}>
      {c.drift.map((d) => (
        <span key={d.key}>
          <Tag color="red">{d.key}</Tag>
          <Typography.Text type="secondary">{settingName(t, d.setting)}: </Typography.Text>
          <Typography.Text code>{d.wanted}</Typography.Text>
          {' → '}
          {d.reason === 'unknown' ? <Typography.Text type="danger">{t('ui.configFleet.unknownToCharger')}</Typography.Text> : <Typography.Text code>{d.actual ?? ''}</Typography.Text>}
        </span>
      ))}
    </Space>
  );
}
