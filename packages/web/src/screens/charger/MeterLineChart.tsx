import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { echarts } from './echarts.ts';

/** [time in ms, value] per reading; null where a reading lacks the value (the line joins across it). */
export type MeterSeries = Record<'kwh' | 'a' | 'v', [number, number | null][]>;

/**
 * Meter readings as one line chart: energy (kWh) on the left axis, current (A) and voltage (V) on
 * the right, zoomable. The charger view's charts and the session pop-view draw with it.
 * `range` ([from, to] in ms) fixes the time axis, so that a chosen range shows where readings lie in it.
 */
export function MeterLineChart({ series, range, height, testId }: { series: MeterSeries; range?: [number, number]; height: number; testId: string }) {
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
    const line = (name: string, key: keyof MeterSeries, yAxisIndex: number) => ({
      name,
      type: 'line' as const,
      yAxisIndex,
      showSymbol: series[key].length < 60,
      connectNulls: true,
      data: series[key],
    });
    chart.current?.setOption(
      {
        animation: false,
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        grid: { left: 56, right: 56, top: 48, bottom: 56 },
        xAxis: { type: 'time', ...(range ? { min: range[0], max: range[1] } : {}) },
        yAxis: [
          { type: 'value', name: 'kWh', scale: true },
          { type: 'value', name: 'A / V', scale: true, splitLine: { show: false } },
        ],
        dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
        series: [line(t('ui.chart.energy'), 'kwh', 0), line(t('ui.chart.current'), 'a', 1), line(t('ui.chart.voltage'), 'v', 1)],
      },
      { notMerge: true },
    );
  }, [series, range?.[0], range?.[1], t]);

  return <div ref={el} data-testid={testId} style={{ width: '100%', height }} />;
}
