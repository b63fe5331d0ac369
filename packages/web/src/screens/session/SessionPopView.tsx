import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Empty, Space, Spin, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { formatSeconds, getResource, type ResourceDef } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { useLabels } from '../../app/labels.ts';
import { usePermissions } from '../../app/session.tsx';
import { renderValue } from '../../resources/display.tsx';
import { useOptions } from '../../resources/options.ts';
import type { RecordData } from '../../resources/use-record.ts';
import { MeterLineChart } from '../charger/MeterLineChart.tsx';
import { chartSeries, hasMeterValues, meterPoints, sessionMeterQuery, tableCells, type MeterPoint, type SessionRequestRow } from './meter-series.ts';

interface RequestsAnswer {
  dataset: { content: SessionRequestRow[]; sizeCappedTo?: number; totalElements?: number };
}

const TYPE_LABELS = { StartTransaction: 'ui.session.typeStart', MeterValues: 'ui.session.typeMeter', StopTransaction: 'ui.session.typeStop' } as const;

/** The session's key facts: where, who, when, how much, why it stopped. */
export function SessionSummary({ def, record }: { def: ResourceDef; record: RecordData }) {
  const { fieldLabel } = useLabels();
  const ended = record.session_end_time !== null && record.session_end_time !== undefined && record.session_end_time !== '';
  // A running session has no total yet: its energy so far.
  const energyField = ended || record.running_pw_consume == null ? 'total_pw_consume' : 'running_pw_consume';
  const fields = ['cp_no', 'connector_id', 'id_tag', 'session_start_time', 'session_end_time', energyField, 'total_charge_time', 'stop_reason'];
  const columns = fields.flatMap((f) => def.columns.filter((c) => c.field === f));
  const options = useOptions(columns.map((c) => c.options));
  const value = (field: string) => {
    const c = columns.find((col) => col.field === field)!;
    if (field === 'connector_id' && record.connector_name) return `${String(record.connector_id)} · ${String(record.connector_name)}`;
    // Duration of a session without a stored total: from its start to its end (or now).
    if (field === 'total_charge_time' && record.total_charge_time == null && record.session_start_time) {
      const end = ended ? dayjs(String(record.session_end_time)) : dayjs();
      return formatSeconds(end.diff(dayjs(String(record.session_start_time)), 'second'));
    }
    return renderValue(c, record[field], options, true);
  };
  return (
    <Descriptions
      bordered
      size="small"
      column={{ xs: 1, sm: 2 }}
      data-testid="session-summary"
      items={columns.map((c) => ({ key: c.field, label: fieldLabel(def.key, c.field), children: value(c.field) }))}
    />
  );
}

const orDash = (cell: string) => cell || <Typography.Text type="secondary">-</Typography.Text>;

/** Time, energy (kWh, 3 decimals), V and A of every reading, oldest first. */
function MeterTable({ points }: { points: MeterPoint[] }) {
  const { t } = useTranslation();
  return (
    <Table<MeterPoint>
      data-testid="session-meter-table"
      size="small"
      rowKey="key"
      dataSource={points}
      pagination={{ defaultPageSize: 10, showSizeChanger: true, hideOnSinglePage: true }}
      columns={[
        { key: 'time', title: t('ui.session.time'), render: (_, p) => tableCells(p).time },
        { key: 'type', title: t('ui.session.type'), render: (_, p) => (p.type ? t(TYPE_LABELS[p.type]) : '') },
        { key: 'kwh', title: t('ui.chart.energy'), align: 'right', render: (_, p) => orDash(tableCells(p).kwh) },
        { key: 'v', title: t('ui.chart.voltage'), align: 'right', render: (_, p) => orDash(tableCells(p).v) },
        { key: 'a', title: t('ui.chart.current'), align: 'right', render: (_, p) => orDash(tableCells(p).a) },
      ]}
    />
  );
}

/** The session's readings from GET /api/cp_requests (spec part 1 §7): chart and table. */
function SessionReadings({ sessionId }: { sessionId: number }) {
  const { t } = useTranslation();
  const readings = useQuery({
    queryKey: ['cp_requests', 'session', sessionId],
    queryFn: () => api.get<RequestsAnswer>('/cp_requests', sessionMeterQuery(sessionId)),
  });
  const points = useMemo(() => meterPoints(readings.data?.dataset.content ?? []), [readings.data]);
  const series = useMemo(() => chartSeries(points), [points]);
  if (readings.isPending) return <Spin />;
  if (readings.isError) return <Alert type="error" showIcon title={errorText(readings.error, t)} />;
  if (!points.length) return <Empty data-testid="session-no-readings" description={t('ui.session.noReadings')} />;
  const capped = readings.data.dataset.sizeCappedTo;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {!hasMeterValues(points) && <Alert type="info" showIcon title={t('ui.session.noMeterValues')} />}
      {capped !== undefined && <Alert type="warning" showIcon title={t('ui.session.capped', { count: capped })} />}
      <MeterLineChart series={series} height={320} testId="session-chart" />
      <MeterTable points={points} />
    </Space>
  );
}

/** Session pop-view (spec part 1 §2): the summary, then a chart and a table of its meter readings. */
export default function SessionPopView({ def, record }: { def: ResourceDef; record: RecordData }) {
  const { t } = useTranslation();
  const perms = usePermissions();
  const sessionId = Number(record.session_id);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="session-popview">
      <SessionSummary def={def} record={record} />
      <Typography.Title level={5} style={{ margin: 0 }}>
        {t('ui.session.readings')}
      </Typography.Title>
      {perms.canRead(getResource('cp_requests')!) ? (
        <SessionReadings sessionId={sessionId} />
      ) : (
        <Alert type="info" showIcon title={t('ui.session.noPermission')} />
      )}
    </Space>
  );
}
