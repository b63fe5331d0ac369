import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Empty, InputNumber, Segmented, Space, Spin, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { P } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { MeterLineChart, type MeterSeries } from './MeterLineChart.tsx';

/** One bucket of GET /api/cps/:id/meter_chart. */
export interface MeterChartPoint {
  t: number;
  kwh: number | null;
  v: number | null;
  a: number | null;
}
interface MeterChartAnswer {
  status: string;
  errorCode?: number;
  data?: { step: number; points: MeterChartPoint[] };
}

export type ChartRange = 'today' | '7days' | '1months';
const RANGE_LABELS: Record<ChartRange, string> = { today: 'ui.chart.today', '7days': 'ui.chart.days7', '1months': 'ui.chart.month1' };
/** The chart refreshes itself this often (the range's end moves to now). */
const REFRESH_MS = 60_000;

const toSeries = (points: MeterChartPoint[]): MeterSeries => {
  const of = (key: 'kwh' | 'a' | 'v') => points.map((p): [number, number | null] => [p.t * 1000, p[key]]);
  return { kwh: of('kwh'), a: of('a'), v: of('v') };
};

/** [from, to] in unix seconds for a range ending now. */
export function rangeBounds(range: ChartRange, now = dayjs()): [number, number] {
  const start = range === 'today' ? now.startOf('day') : range === '7days' ? now.subtract(7, 'day') : now.subtract(1, 'month');
  return [start.unix(), now.unix()];
}

/** One connector's chart over the chosen range, refetched every minute. */
function ConnectorChart({ cpId, connectorId, range }: { cpId: number; connectorId: number; range: ChartRange }) {
  const { t } = useTranslation();
  const chart = useQuery({
    queryKey: ['meter_chart', cpId, connectorId, range],
    queryFn: async () => {
      const [from, to] = rangeBounds(range);
      const answer = await api.get<MeterChartAnswer>(`/cps/${cpId}/meter_chart`, { connector_id: connectorId, from, to });
      return { ...answer, from, to };
    },
    refetchInterval: REFRESH_MS,
  });
  if (chart.isPending) return <Spin />;
  if (chart.isError) return <Alert type="error" showIcon title={errorText(chart.error, t)} />;
  const answer = chart.data;
  if (answer.status !== 'success' || !answer.data) {
    return <Alert type="error" showIcon title={t(`msg.error.${String(answer.errorCode)}`, { defaultValue: t('msg.errorOccurred') })} />;
  }
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {answer.data.points.length ? <MeterLineChart series={toSeries(answer.data.points)} range={[answer.from * 1000, answer.to * 1000]} height={360} testId="meter-chart" /> : <Empty description={t('ui.chart.noData')} />}
      <Typography.Text type="secondary" data-testid="meter-chart-updated">
        {t('ui.chart.refreshed', { time: dayjs(chart.dataUpdatedAt).format('HH:mm:ss') })}
      </Typography.Text>
    </Space>
  );
}

interface Connector {
  cp_id: number;
  connector_id: number;
  connector_name: string | null;
}

/** Charger view, Charts tab (spec part 1 §2): a tab per connector, a range select, the meter chart. */
export default function MeterChartTab({ cpId }: { cpId: number }) {
  const { t } = useTranslation();
  const perms = usePermissions();
  const canListConnectors = perms.has(P.CP_CONNECTOR);
  const [range, setRange] = useState<ChartRange>('today');
  const [typed, setTyped] = useState(1);
  const [active, setActive] = useState<string>();
  const connectors = useQuery({
    queryKey: ['cp_connectors', 'chart', cpId],
    enabled: canListConnectors,
    queryFn: () =>
      api
        .get<{ dataset: { content: Connector[] } }>('/cp_connectors', { cp_id: cpId, size: 100, sort_by: 'connector_id', order: 'asc' }, { quiet403: true })
        .then((r) => r.dataset.content.filter((c) => c.cp_id === cpId && c.connector_id > 0)),
  });

  const rangeSelect = (
    <Segmented<ChartRange>
      data-testid="meter-chart-range"
      value={range}
      onChange={setRange}
      options={(Object.keys(RANGE_LABELS) as ChartRange[]).map((value) => ({ value, label: t(RANGE_LABELS[value]) }))}
    />
  );

  // Without the connector privilege the connectors are not listed: the user types a connector number.
  if (!canListConnectors) {
    return (
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Space wrap>
          <InputNumber min={1} max={99} value={typed} onChange={(v) => setTyped(v ?? 1)} prefix={t('ui.chart.connector', { n: '' })} />
          {rangeSelect}
        </Space>
        <ConnectorChart cpId={cpId} connectorId={typed} range={range} />
      </Space>
    );
  }
  if (connectors.isPending) return <Spin />;
  if (connectors.isError) return <Alert type="error" showIcon title={errorText(connectors.error, t)} />;
  if (!connectors.data.length) return <Empty description={t('ui.chart.noConnectors')} />;
  const current = active ?? String(connectors.data[0].connector_id);
  return (
    <Tabs
      type="card"
      size="small"
      activeKey={current}
      onChange={setActive}
      tabBarExtraContent={rangeSelect}
      items={connectors.data.map((c) => ({
        key: String(c.connector_id),
        label: c.connector_name ? `${t('ui.chart.connector', { n: c.connector_id })} · ${c.connector_name}` : t('ui.chart.connector', { n: c.connector_id }),
        children: String(c.connector_id) === current ? <ConnectorChart cpId={cpId} connectorId={c.connector_id} range={range} /> : null,
      }))}
    />
  );
}
