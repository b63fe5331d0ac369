import { useCallback, useMemo, useState } from 'react';
import { Alert, Button, Select, Space, Table, Tag, Typography } from 'antd';
import { ClearOutlined, PauseOutlined, CaretRightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { readPrivilege, type LmsLogEntry } from '@ev/core';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { readStoredText } from '../../resources/display.tsx';
import { optionLabel, useOptions } from '../../resources/options.ts';
import { appendLog, clearLog, EMPTY_LOG, filterLog, logChargers, MAX_LOG_LINES, setPaused, timeText } from './lms-live.ts';
import { useLmsSocket } from './use-lms-socket.ts';
import { DisconnectedBanner, SocketStateTag } from './SocketBanner.tsx';

function RealtimeLog() {
  const { t, i18n } = useTranslation();
  const { resourceName } = useLabels();
  const [log, setLog] = useState(EMPTY_LOG);
  const onLog = useCallback((entries: LmsLogEntry[]) => setLog((prev) => appendLog(prev, entries)), []);
  const socket = useLmsSocket({ onLog });
  const options = useOptions(['cp_locs']);
  const [locId, setLocId] = useState<number>();
  const [cpNo, setCpNo] = useState<string>();
  const shown = useMemo(() => filterLog(log.lines, { locId, cpNo }), [log.lines, locId, cpNo]);
  const chargers = useMemo(() => logChargers(log.lines, locId), [log.lines, locId]);
  const kindText = (kind: string) => t(`ui.lmsLive.log.kinds.${kind}`, { defaultValue: kind });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="lms-log">
      <Space wrap align="center">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {resourceName('realtime/log')}
        </Typography.Title>
        <SocketStateTag state={socket.state} />
      </Space>
      <DisconnectedBanner state={socket.state} retryAt={socket.retryAt} onReconnect={socket.reconnect} />
      <Space wrap>
        <Select<number>
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 220 }}
          placeholder={t('ui.lmsLive.log.allSites')}
          aria-label={t('ui.lmsLive.log.site')}
          data-testid="lms-log-site"
          value={locId}
          onChange={(v) => {
            setLocId(v);
            setCpNo(undefined);
          }}
          options={options.cp_locs.map((o) => ({ label: o.label, value: Number(o.value) }))}
        />
        <Select<string>
          allowClear
          showSearch
          style={{ minWidth: 200 }}
          placeholder={t('ui.lmsLive.log.allChargers')}
          aria-label={t('ui.lmsLive.log.charger')}
          data-testid="lms-log-charger"
          value={cpNo}
          onChange={setCpNo}
          options={chargers.map((c) => ({ label: c, value: c }))}
        />
        <Button
          icon={log.paused ? <CaretRightOutlined /> : <PauseOutlined />}
          onClick={() => setLog((prev) => setPaused(prev, !prev.paused))}
          data-testid="lms-log-pause"
        >
          {t(log.paused ? 'ui.lmsLive.log.resume' : 'ui.lmsLive.log.pause')}
        </Button>
        <Button icon={<ClearOutlined />} onClick={() => setLog(clearLog)} data-testid="lms-log-clear">
          {t('ui.lmsLive.log.clear')}
        </Button>
        {log.paused && log.held.length > 0 && <Tag color="warning">{t('ui.lmsLive.log.held', { count: log.held.length })}</Tag>}
      </Space>
      <Typography.Text type="secondary" data-testid="lms-log-count">
        {t('ui.lmsLive.log.count', { shown: shown.length, total: log.lines.length, max: MAX_LOG_LINES })}
      </Typography.Text>
      <Table<LmsLogEntry>
        size="small"
        rowKey="id"
        data-testid="lms-log-table"
        dataSource={shown}
        locale={{ emptyText: t('ui.lmsLive.log.empty') }}
        pagination={{ defaultPageSize: 50, pageSizeOptions: [50, 100, 200], showSizeChanger: true, hideOnSinglePage: true }}
        columns={[
          { key: 'at', title: t('ui.lmsLive.log.time'), width: 170, render: (_, e) => timeText(e.at) },
          {
            key: 'loc',
            title: t('ui.lmsLive.log.site'),
            width: 200,
            // Site names come in the reader's language; an id stays when the list does not hold it.
            render: (_, e) => optionLabel(options.cp_locs, e.loc_id),
          },
          { key: 'cp', title: t('ui.lmsLive.log.charger'), width: 140, render: (_, e) => e.cp_no ?? '' },
          {
            key: 'level',
            title: t('ui.lmsLive.log.level'),
            width: 90,
            render: (_, e) => <Tag color={e.level === 'warn' ? 'warning' : 'default'}>{t(`ui.lmsLive.log.levels.${e.level}`)}</Tag>,
          },
          { key: 'kind', title: t('ui.lmsLive.log.kind'), width: 150, render: (_, e) => kindText(e.kind) },
          { key: 'message', title: t('ui.lmsLive.log.message'), render: (_, e) => readStoredText(e.message, t, i18n.language) },
        ]}
      />
    </Space>
  );
}

/** /realtime/log (spec part 1 §2): the LMS log as it happens, newest first, filtered by site and charger. */
export default function RealtimeLogPage() {
  const { t } = useTranslation();
  const perms = usePermissions();
  if (!perms.has(readPrivilege('realtime/log'))) return <Alert type="error" showIcon title={t('ui.error.noPermission')} />;
  return <RealtimeLog />;
}
