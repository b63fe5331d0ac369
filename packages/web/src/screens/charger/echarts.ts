/**
 * ECharts, modularly: only the line chart and the components the charger charts use, drawn on a
 * canvas. Loaded with the Charts tab's chunk (MeterChartTab is imported lazily), never with the main bundle.
 */
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

export { echarts };
