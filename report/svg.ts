// A chart spec -> a self-contained SVG file, drawn by ECharts' server-side SVG renderer (no browser, no canvas), for
// the Markdown beside each result: GitHub and most Markdown viewers show SVG images inline.
import * as echarts from 'echarts';
import type { ChartSpec } from '../lib/report/chart-spec';
import { CHART_HEIGHT, CHART_WIDTH, echartsOption } from './echarts-option';

export function renderSvg(spec: ChartSpec): string {
  const chart = echarts.init(null, null, {
    renderer: 'svg',
    ssr: true,
    width: CHART_WIDTH,
    height: CHART_HEIGHT,
  });
  try {
    chart.setOption(echartsOption(spec));
    return `${chart.renderToSVGString()}\n`;
  } finally {
    chart.dispose();
  }
}
