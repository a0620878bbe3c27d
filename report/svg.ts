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
    return `${processIndependentIds(chart.renderToSVGString())}\n`;
  } finally {
    chart.dispose();
  }
}

/**
 * zrender numbers each SVG's ids and CSS classes from counters global to the process (`zr3-cls-15`), so the same
 * chart drawn after others (`bench report DIR`, or after another result) came out with other names: committed
 * SVGs changed on every redraw. One chart per file needs no process-wide uniqueness, so the names are renumbered
 * in order of first appearance.
 */
export function processIndependentIds(svg: string): string {
  const classes = new Map<string, number>();
  return svg.replace(/\bzr\d+-(cls-(\d+)|[a-z]*\d+)/g, (_, rest: string, cls: string | undefined) => {
    if (cls === undefined) return `zr0-${rest}`;
    let n = classes.get(cls);
    if (n === undefined) {
      n = classes.size;
      classes.set(cls, n);
    }
    return `zr0-cls-${n}`;
  });
}
