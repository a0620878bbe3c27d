// The web dashboard's page: its charts (charts.ts) drawn by the same self-contained ECharts page as `bench report`
// (charts/html-page.ts), then the tables: per scenario (requests, failures, iterations, checks), the checks, and
// every metric over the whole test in the end-of-test summary's words. The live page and the export are the same
// page; the live one follows server-sent events. Pure (the whole-test metrics come in as data).
import { escapeHtml, htmlPage, type PageChart, pageCharts } from '../../../charts/html-page';
import type { SummaryMetric } from '../../summary/data';
import { metricValues } from '../../summary/format';
import { dashboardCharts } from './charts';
import { type DashboardData, seriesKey } from './recorder';

/** One metric over the whole test, as the end-of-test summary has it. */
export interface MetricTotal extends SummaryMetric {
  name: string;
}

export interface DashboardView {
  /** The script's path as the header shows it. */
  script: string;
  data: DashboardData;
  metrics: MetricTotal[];
  /** `running`, or how the test ended. */
  status: string;
  elapsedS: number;
}

/** The trend figures of the metrics table (k6's summary default plus p(99)). */
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'];

function table(head: string[], rows: (string | number)[][]): string {
  const cell = (tag: string) => (v: string | number) => `<${tag}>${escapeHtml(String(v))}</${tag}>`;
  return [
    '<table>',
    `<thead><tr>${head.map(cell('th')).join('')}</tr></thead>`,
    `<tbody>${rows.map((r) => `<tr>${r.map(cell('td')).join('')}</tr>`).join('')}</tbody>`,
    '</table>',
  ].join('');
}

/** A metric's counts summed over every period: [sum] for counters, [trues, samples] for rates. */
function total(
  data: DashboardData,
  metric: string,
  scenario: string,
): { sum: number; trues: number; samples: number } {
  const key = seriesKey(metric, scenario);
  const t = { sum: 0, trues: 0, samples: 0 };
  for (const p of data.periods) {
    const f = p.get(key);
    if (f?.type === 'counter') t.sum += f.sum;
    if (f?.type === 'rate') {
      t.trues += f.trues;
      t.samples += f.samples;
    }
  }
  return t;
}

function pct(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(2)} %` : '—';
}

function scenarioRows(data: DashboardData): (string | number)[][] {
  const names = [...data.scenarios, ...(data.scenarios.length === 1 ? [] : [''])];
  return names.map((s) => {
    const failed = total(data, 'http_req_failed', s);
    const checks = total(data, 'checks', s);
    return [
      s === '' ? '(all)' : s,
      total(data, 'http_reqs', s).sum,
      failed.trues,
      pct(failed.trues, failed.samples),
      total(data, 'iterations', s).sum,
      checks.samples > 0 ? `${checks.trues} / ${checks.samples}` : '—',
    ];
  });
}

/** The tables under the charts. */
export function dashboardTables(view: DashboardView): string {
  const { data } = view;
  const parts: string[] = [];
  if (data.scenarios.length > 0) {
    parts.push('<h2>Scenarios</h2>');
    parts.push(
      table(
        ['scenario', 'requests', 'failed', 'failed share', 'iterations', 'checks passed'],
        scenarioRows(data),
      ),
    );
  }
  if (data.checks.length > 0) {
    parts.push('<h2>Checks</h2>');
    parts.push(
      table(
        ['scenario', 'check', 'passes', 'fails'],
        data.checks.map((c) => [c.scenario, c.name, c.passes, c.fails]),
      ),
    );
  }
  parts.push('<h2>Metrics (whole test)</h2>');
  parts.push(
    table(
      ['metric', 'type', 'values'],
      view.metrics.map((m) => [m.name, m.type, metricValues(m, '', TREND_STATS).join('  ')]),
    ),
  );
  return parts.join('\n');
}

function dashboardStatus(view: DashboardView): string {
  return `${view.status}: ${view.elapsedS.toFixed(1)} s, ${total(view.data, 'http_reqs', '').sum} requests`;
}

export interface DashboardContent {
  charts: PageChart[];
  notes: string[];
  bodyHtml: string;
  status: string;
}

export function dashboardContent(view: DashboardView): DashboardContent {
  const set = dashboardCharts(view.data);
  return {
    charts: pageCharts(set.charts),
    notes: set.notes,
    bodyHtml: dashboardTables(view),
    status: dashboardStatus(view),
  };
}

/** The whole page; with `eventsUrl`, the live page that follows the run. */
export function dashboardPage(view: DashboardView, eventsUrl?: string): string {
  const c = dashboardContent(view);
  return htmlPage({
    title: `bench web dashboard: ${view.script}`,
    introHtml: [
      `<p>Script <code>${escapeHtml(view.script)}</code>; charts per ${view.data.periodS} s period (K6_WEB_DASHBOARD_PERIOD).</p>`,
      ...c.notes.map((n) => `<p><em>${escapeHtml(n)}</em></p>`),
    ].join('\n'),
    charts: c.charts,
    bodyHtml: c.bodyHtml,
    status: c.status,
    eventsUrl,
  });
}
