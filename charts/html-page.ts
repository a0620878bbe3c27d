// One self-contained HTML page of charts and tables: Apache ECharts inlined (no network), every chart interactive
// (tooltips with units and intervals, legend entries toggle their series, wheel/drag zoom on value axes), the tables
// below. Used by `bench report` (a result's page) and the web dashboard (live over server-sent events, and its
// export). The page marks `data-charts-drawn` on <body> once every chart rendered, for the browser test.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ChartSpec } from '../core/chart-spec';
import { CHART_HEIGHT, type EChartsOption, echartsOption } from './echarts-option';
import { wrappedLegendBottom } from './legend-layout';

const require = createRequire(import.meta.url);
let library: string | undefined;

/** echarts.min.js (Apache-2.0), read once from node_modules. */
function echartsLibrary(): string {
  library ??= readFileSync(require.resolve('echarts/dist/echarts.min.js'), 'utf8');
  return library;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON inside <script>: nothing in it may close the element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

export interface PageChart {
  id: string;
  option: EChartsOption;
}

export function pageCharts(specs: readonly ChartSpec[]): PageChart[] {
  return specs.map((s) => ({ id: s.id, option: echartsOption(s) }));
}

export interface PageInput {
  title: string;
  /** Lines under the heading (HTML allowed: callers escape their text). */
  introHtml: string;
  charts: PageChart[];
  /** The tables and text below the charts. */
  bodyHtml: string;
  /** A line above the charts (the web dashboard's run state). */
  status?: string;
  /** Live page: a server-sent events URL whose `update` events replace charts and body. */
  eventsUrl?: string;
}

// Runs in the browser: draws every chart, formats tooltips, follows live updates.
const CLIENT = `
(function () {
  var fmt = function (v, unit) {
    if (v === null || v === undefined || Number.isNaN(v)) return '—';
    var a = Math.abs(v);
    var text = a >= 1000 ? Math.round(v).toLocaleString('en') : a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : v.toFixed(3);
    return unit ? text + ' ' + unit : text;
  };
  var instances = {};
  function tooltipFor(option) {
    return function (params) {
      var list = Array.isArray(params) ? params : [params];
      if (list.length === 0) return '';
      var head = list[0].axisValueLabel !== undefined ? list[0].axisValueLabel : list[0].name;
      var xUnit = option.benchXUnit && typeof list[0].axisValue === 'number' ? ' ' + option.benchXUnit : '';
      var lines = [String(head) + xUnit];
      list.forEach(function (p) {
        var value = Array.isArray(p.value) ? p.value[1] : p.value;
        if (value === null || value === undefined) return;
        var unit = option.series[p.seriesIndex] ? option.series[p.seriesIndex].unit : '';
        var line = p.marker + p.seriesName + ': <b>' + fmt(value, unit) + '</b>';
        var iv = p.data && p.data.interval;
        if (iv) line += ' (95% ' + fmt(iv[0], '') + '–' + fmt(iv[1], unit) + ')';
        lines.push(line);
      });
      return lines.join('<br>');
    };
  }
  var wrappedLegendBottom = ${wrappedLegendBottom.toString()};
  var measure = document.createElement('canvas').getContext('2d');
  var drawn = {};
  // Every legend entry shown: a plain legend wrapping onto the rows its texts need at this width (measured in the
  // page's font), the plot below it and the chart that much taller, where a scrolling one paged them behind "1/2".
  function layOut(el, chart) {
    var option = chart.option;
    if (chart.gridTop === undefined) chart.gridTop = option.grid.top;
    measure.font = '12px ' + option.textStyle.fontFamily;
    var widths = option.series.map(function (s) { return measure.measureText(s.name).width; });
    var room = el.clientWidth - option.legend.left - option.legend.right;
    var gridTop = Math.max(chart.gridTop, Math.ceil(wrappedLegendBottom(widths, room, option.legend.top) + 16));
    option.legend.type = 'plain';
    option.grid.top = gridTop;
    el.style.height = (${CHART_HEIGHT} + gridTop - chart.gridTop) + 'px';
  }
  function draw(chart) {
    var el = document.getElementById('chart-' + chart.id);
    if (!el) return;
    var option = chart.option;
    option.tooltip.formatter = tooltipFor(option);
    if (option.xAxis && option.xAxis.type !== 'category') option.dataZoom = [{ type: 'inside', filterMode: 'none' }];
    layOut(el, chart);
    var instance = instances[chart.id] || echarts.init(el, null, { renderer: 'svg' });
    instances[chart.id] = instance;
    drawn[chart.id] = chart;
    instance.setOption(option, { notMerge: false, lazyUpdate: false });
    instance.resize();
  }
  function drawAll(charts) {
    charts.forEach(draw);
    document.body.setAttribute('data-charts-drawn', String(Object.keys(instances).length));
  }
  drawAll(JSON.parse(document.getElementById('bench-charts').textContent));
  window.addEventListener('resize', function () {
    Object.keys(drawn).forEach(function (k) { draw(drawn[k]); });
  });
  var events = document.body.getAttribute('data-events');
  if (events && window.EventSource) {
    var source = new EventSource(events);
    source.addEventListener('update', function (e) {
      var update = JSON.parse(e.data);
      var box = document.getElementById('charts');
      update.charts.forEach(function (c) {
        if (!document.getElementById('chart-' + c.id)) {
          var fig = document.createElement('figure');
          fig.innerHTML = '<div class="chart" id="chart-' + c.id + '"></div>';
          box.appendChild(fig);
        }
      });
      drawAll(update.charts);
      if (update.bodyHtml !== undefined) document.getElementById('tables').innerHTML = update.bodyHtml;
      if (update.status) document.getElementById('status').textContent = update.status;
    });
    source.addEventListener('end', function () { source.close(); });
  }
})();
`;

const STYLE = `
  body { font-family: Helvetica, Arial, sans-serif; margin: 0 auto; max-width: 1040px; padding: 16px 24px 48px;
         color: #222; background: #fafafa; }
  h1 { font-size: 22px; margin: 8px 0; }
  .intro { color: #444; font-size: 14px; line-height: 1.5; }
  .intro p { margin: 4px 0; }
  figure { margin: 18px 0; background: #fff; border: 1px solid #ddd; border-radius: 4px; padding: 4px; }
  .chart { width: 100%; height: ${CHART_HEIGHT}px; }
  #tables { font-size: 13px; line-height: 1.45; }
  #tables table { border-collapse: collapse; margin: 10px 0; background: #fff; }
  #tables th, #tables td { border: 1px solid #ccc; padding: 3px 7px; text-align: left; }
  #tables th { background: #f0f0f0; }
  #tables code { background: #eee; padding: 0 3px; }
  #status { color: #666; font-size: 13px; }
`;

export function htmlPage(p: PageInput): string {
  const figures = p.charts.map(
    (c) => `<figure><div class="chart" id="chart-${escapeHtml(c.id)}"></div></figure>`,
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(p.title)}</title>`,
    `<style>${STYLE}</style>`,
    // The charting library, inlined: the page works offline and from a file.
    `<script>${echartsLibrary()}</script>`,
    '</head>',
    `<body${p.eventsUrl ? ` data-events="${escapeHtml(p.eventsUrl)}"` : ''}>`,
    `<h1>${escapeHtml(p.title)}</h1>`,
    `<div class="intro">${p.introHtml}</div>`,
    `<div id="status">${escapeHtml(p.status ?? '')}</div>`,
    `<section id="charts">${figures.join('\n')}</section>`,
    `<section id="tables">${p.bodyHtml}</section>`,
    `<script type="application/json" id="bench-charts">${scriptJson(p.charts)}</script>`,
    `<script>${CLIENT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
