import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { echarts } from './echarts.ts';

export interface SchedulePeriod {
  startPeriod: number;
  limit: number;
}

/**
 * A composite schedule (GetCompositeSchedule) as a step chart: the limit from each period's start
 * second until the next, to the schedule's duration. ECharts comes with the lazily loaded tab.
 */
export function CompositeScheduleChart({ periods, duration, unit }: { periods: SchedulePeriod[]; duration: number; unit: string }) {
  const { t } = useTranslation();
  const el = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!el.current) return;
    const chart = echarts.init(el.current);
    const points: [number, number][] = periods.map((p) => [p.startPeriod, p.limit]);
    // The last limit holds to the end of the schedule.
    if (periods.length) points.push([Math.max(duration, periods.at(-1)!.startPeriod), periods.at(-1)!.limit]);
    chart.setOption({
      animation: false,
      tooltip: { trigger: 'axis' },
      grid: { left: 56, right: 24, top: 32, bottom: 40 },
      xAxis: { type: 'value', name: 's', min: 0, max: Math.max(duration, 1) },
      yAxis: { type: 'value', name: unit, min: 0 },
      series: [{ name: t('ui.chargingProfiles.compositeLimit', { unit }), type: 'line', step: 'end', showSymbol: true, areaStyle: { opacity: 0.15 }, data: points }],
    });
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el.current);
    return () => {
      observer.disconnect();
      chart.dispose();
    };
  }, [periods, duration, unit, t]);

  return <div ref={el} data-testid="composite-chart" style={{ width: '100%', height: 260 }} />;
}
