import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Empty, InputNumber, Segmented, Space, Spin, Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { P } from '@ev/core';
import { api } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { usePermissions } from '../../app/session.tsx';
import { echarts } from './echarts.ts';

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

/** [from, to] in unix seconds for a range ending now. */
export function rangeBounds(range: ChartRange, now = dayjs()): [number, number] {
  const start = range === 'today' ? now.startOf('day') : range === '7days' ? now.subtract(7, 'day') : now.subtract(1, 'month');
  return [start.unix(), now.unix()];
}

/** The line chart of one connector's readings: energy on the left axis, current and voltage on the right. */
function MeterLineChart({ points, from, to }: { points: MeterChartPoint[]; from: number; to: number }) {
  const { t } = useTranslation();
  const el = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!el.current) return;
    const instance = echarts.init(el.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const series = (name: string, key: 'kwh' | 'a' | 'v', yAxisIndex: number) => ({
      name,
      type: 'line' as const,
      yAxisIndex,
      showSymbol: points.length < 60,
      connectNulls: true,
      data: points.map((p) => [p.t * 1000, p[key]]),
    });
    chart.current?.setOption(
      {
        animation: false,
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        grid: { left: 56, right: 56, top: 48, bottom: 56 },
        // The whole chosen range, so that switching range shows where the readings lie in it.
        xAxis: { type: 'time', min: from * 1000, max: to * 1000 },
        yAxis: [
          { type: 'value', name: 'kWh', scale: true },
          { type: 'value', name: 'A / V', scale: true, splitLine: { show: false } },
        ],
        dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
        series: [series(t('ui.chart.energy'), 'kwh', 0), series(t('ui.chart.current'), 'a', 1), series(t('ui.chart.voltage'), 'v', 1)],
      },
      { notMerge: true },
    );
  }, [points, from, to, t]);

  return <div ref={el} data-testid="meter-chart" style={{ width: '100%', height: 360 }} />;
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
      {answer.data.points.length ? <MeterLineChart points={answer.data.points} from={answer.from} to={answer.to} /> : <Empty description={t('ui.chart.noData')} />}
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
