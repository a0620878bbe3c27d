// A chart spec -> a self-contained SVG file, drawn by ECharts' server-side SVG renderer (no browser, no canvas), for
// the Markdown beside each result: GitHub and most Markdown viewers show SVG images inline.
import * as echarts from 'echarts';
import type { ChartSpec } from '../core/chart-spec';
import { CHART_HEIGHT, CHART_WIDTH, type EChartsOption, echartsOption } from './echarts-option';

/** Space below the title block and below the legend: a one-row legend keeps the page's layout (at 62, plot at 104). */
const GAP = 6;
const LEGEND_TO_PLOT = 16;

export interface StaticLayout {
  option: EChartsOption;
  /** The SVG's height: CHART_HEIGHT plus the legend's rows beyond the first, so the plot keeps its size. */
  height: number;
  /** Where the legend ends and the plot begins (pixels from the top), for the test that they do not overlap. */
  legendBottom: number;
  gridTop: number;
}

/**
 * The option for a static picture. The page's scrolling legend pages its entries behind a "1/2" pager that an image
 * cannot turn, so a reader of the SVG could not tell some series apart; a plain legend wraps onto as many rows as it
 * needs instead. Its rows depend on the entries' text widths, so the chart is laid out once to measure the title
 * and the legend, and then the legend goes below the title and the plot below the legend.
 */
export function staticLayout(spec: ChartSpec): StaticLayout {
  const base = echartsOption(spec);
  const option: EChartsOption = { ...base, legend: { ...base.legend, type: 'plain' } };
  const { titleBottom, legendHeight } = measure(option);
  const legendTop = Math.max(option.legend.top as number, titleBottom + GAP);
  const legendBottom = legendTop + legendHeight;
  // Whole pixels: the SVG's height follows, and a fractional one makes viewers scale or crop the picture.
  const gridTop = Math.max(option.grid.top as number, Math.ceil(legendBottom + LEGEND_TO_PLOT));
  return {
    option: {
      ...option,
      legend: { ...option.legend, top: legendTop },
      grid: { ...option.grid, top: gridTop },
    },
    height: CHART_HEIGHT + gridTop - (option.grid.top as number),
    legendBottom,
    gridTop,
  };
}

export function renderSvg(spec: ChartSpec): string {
  const layout = staticLayout(spec);
  return withChart(
    layout.height,
    layout.option,
    (chart) => `${processIndependentIds(chart.renderToSVGString())}\n`,
  );
}

function withChart<T>(height: number, option: EChartsOption, use: (chart: echarts.ECharts) => T): T {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: CHART_WIDTH, height });
  try {
    chart.setOption(option);
    return use(chart);
  } finally {
    chart.dispose();
  }
}

/** A drawn view's box: its group's position plus its bounding rectangle (which includes the component's padding). */
interface DrawnView {
  group: { y: number; getBoundingRect(): { y: number; height: number } };
}

function measure(option: EChartsOption): { titleBottom: number; legendHeight: number } {
  return withChart(CHART_HEIGHT, option, (chart) => {
    // ECharts has no public call for a component's laid-out size; getModel and getViewOfComponentModel are the
    // instance's own accessors (typed private in the pinned 6.1): if an upgrade drops them, this throws and
    // tests/report/static-legend.test.ts fails.
    const internal = chart as unknown as {
      getModel(): { getComponent(type: string): unknown };
      getViewOfComponentModel(model: unknown): DrawnView | undefined;
    };
    const box = (type: string) => {
      const model = internal.getModel().getComponent(type);
      const view = model ? internal.getViewOfComponentModel(model) : undefined;
      if (!view) throw new Error(`ECharts drew no ${type} to measure`);
      const rect = view.group.getBoundingRect();
      return { top: view.group.y + rect.y, height: rect.height };
    };
    const title = box('title');
    return { titleBottom: title.top + title.height, legendHeight: box('legend').height };
  });
}

/**
 * zrender numbers each SVG's ids and CSS classes from counters global to the process (`zr3-cls-15`), so the same
 * chart drawn after others (`bench report DIR`, or after another result) came out with other names: committed
 * SVGs changed on every redraw. One chart per file needs no process-wide uniqueness, so the names are renumbered
 * in order of first appearance.
 */
function processIndependentIds(svg: string): string {
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
