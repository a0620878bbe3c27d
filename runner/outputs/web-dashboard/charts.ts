// The web dashboard's charts from its per-period data (recorder.ts): request rate, HTTP latency percentiles, VUs,
// checks, errors, and one chart per custom trend (the experiments' server timings), each per scenario when the test
// has more than one. x is the start of each period in seconds after the test's first sample. Pure.
import {
  type ChartSet,
  type ChartSpec,
  ms3,
  type Series,
  withoutEmptySeries,
} from '../../../core/chart-spec';
import { type DashboardData, type PeriodFigures, seriesKey } from './recorder';

/** k6 draws the report's graphs only for a test longer than three periods; so does bench. */
const MIN_PERIODS = 3;

type Pick = (f: PeriodFigures | undefined) => number | null;

function line(
  data: DashboardData,
  name: string,
  metric: string,
  scenario: string,
  pick: Pick,
  extra: Partial<Series> = {},
): Series {
  const key = seriesKey(metric, scenario);
  // A counter with no sample in a period counted 0 there, if it counted anything at all in the test.
  const zero = data.periods.some((p) => p.get(key)?.type === 'counter') ? 0 : null;
  return {
    name,
    kind: 'line',
    step: true,
    points: data.periods.map((p, i) => [round3(i * data.periodS), pick(p.get(key)) ?? zero]),
    ...extra,
  };
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const perSecond =
  (periodS: number): Pick =>
  (f) =>
    f?.type === 'counter' ? round3(f.sum / periodS) : null;
const percentile =
  (p: 'p50' | 'p90' | 'p95' | 'p99'): Pick =>
  (f) =>
    f?.type === 'trend' && f.count > 0 ? ms3(f[p]) : null;
const share: Pick = (f) => (f?.type === 'rate' && f.samples > 0 ? round3((100 * f.trues) / f.samples) : null);
const gaugeMax: Pick = (f) => (f?.type === 'gauge' ? f.max : null);

/** The scenarios to split by: none when there is only one (its lines would repeat the whole test's). */
function split(data: DashboardData): string[] {
  return data.scenarios.length > 1 ? data.scenarios : [];
}

function timeAxis(data: DashboardData) {
  return {
    title: `time since the first sample (s; ${data.periodS} s periods)`,
    kind: 'value' as const,
    unit: 's',
    min: 0,
  };
}

function trendChart(
  data: DashboardData,
  id: string,
  metric: string,
  title: string,
  subtitle: string,
  time = true,
): ChartSpec {
  const scenarios = split(data);
  return {
    id,
    title,
    subtitle,
    x: timeAxis(data),
    y: time
      ? { title: `${metric} (ms)`, kind: 'value', unit: 'ms', min: 0 }
      : { title: metric, kind: 'value' },
    series: [
      line(data, 'p50', metric, '', percentile('p50'), { color: 0 }),
      line(data, 'p90', metric, '', percentile('p90'), { color: 1 }),
      line(data, 'p95', metric, '', percentile('p95'), { color: 2 }),
      line(data, 'p99', metric, '', percentile('p99'), { color: 3 }),
      ...scenarios.map((s, i) =>
        line(data, `p95 ${s}`, metric, s, percentile('p95'), { color: 4 + i, dashed: true }),
      ),
    ],
  };
}

export function dashboardCharts(data: DashboardData): ChartSet {
  if (data.periods.length < MIN_PERIODS)
    return {
      charts: [],
      notes: [
        `The test ran ${data.periods.length} period(s) of ${data.periodS} s; the charts need at least ${MIN_PERIODS} (as in k6): set a shorter K6_WEB_DASHBOARD_PERIOD.`,
      ],
    };
  const scenarios = split(data);
  const rate = perSecond(data.periodS);
  const statuses = [...new Set(data.failedByStatus.flatMap((m) => [...m.keys()]))].sort();
  const charts: ChartSpec[] = [
    {
      id: 'requests',
      title: 'Request rate',
      subtitle: `HTTP requests and iterations per second in each ${data.periodS} s period; dropped iterations (an arrival-rate scenario that ran out of VUs) when there were any.`,
      x: timeAxis(data),
      y: { title: 'per second', kind: 'value', unit: '/s', min: 0 },
      series: [
        line(data, 'http_reqs', 'http_reqs', '', rate, { color: 0 }),
        ...scenarios.map((s, i) =>
          line(data, `http_reqs ${s}`, 'http_reqs', s, rate, { color: 4 + i, dashed: true }),
        ),
        line(data, 'iterations', 'iterations', '', rate, { color: 1 }),
        line(data, 'dropped_iterations', 'dropped_iterations', '', rate, { color: 3 }),
      ],
    },
    trendChart(
      data,
      'http_req_duration',
      'http_req_duration',
      'HTTP request duration',
      `Percentiles of http_req_duration over each ${data.periodS} s period (every request, failed ones included, as k6's metric).`,
    ),
    {
      id: 'vus',
      title: 'Virtual users',
      subtitle: 'Active VUs (vus) and initialised VUs (vus_max): the highest value in each period.',
      x: timeAxis(data),
      y: { title: 'VUs', kind: 'value', min: 0 },
      series: [
        line(data, 'vus', 'vus', '', gaugeMax, { color: 0, area: true }),
        line(data, 'vus_max', 'vus_max', '', gaugeMax, { color: 1 }),
      ],
    },
    {
      id: 'checks',
      title: 'Checks',
      subtitle: 'Share of check() conditions that passed in each period.',
      x: timeAxis(data),
      y: { title: 'passed (%)', kind: 'value', unit: '%', min: 0 },
      series: [
        line(data, 'checks passed', 'checks', '', share, { color: 2 }),
        ...scenarios.map((s, i) =>
          line(data, `checks ${s}`, 'checks', s, share, { color: 4 + i, dashed: true }),
        ),
      ],
    },
    {
      id: 'errors',
      title: 'Errors',
      subtitle:
        'Share of requests that failed (http_req_failed: a status outside the expected ones, or no response) and failed requests per second by status (right axis; status 0: no response).',
      x: timeAxis(data),
      y: { title: 'failed (%)', kind: 'value', unit: '%', min: 0 },
      y2: { title: 'failed per second', kind: 'value', unit: '/s', min: 0 },
      series: [
        line(data, 'failed', 'http_req_failed', '', share, { color: 3 }),
        ...scenarios.map((s, i) =>
          line(data, `failed ${s}`, 'http_req_failed', s, share, { color: 4 + i, dashed: true }),
        ),
        ...statuses.map(
          (status, i): Series => ({
            name: `status ${status === '' ? '?' : status}`,
            kind: 'bar',
            axis: 'y2',
            color: 8 + i,
            points: data.failedByStatus.map((m, j) => [
              round3(j * data.periodS),
              m.has(status) ? round3((m.get(status) ?? 0) / data.periodS) : null,
            ]),
          }),
        ),
      ],
    },
    ...data.trends.map((t) =>
      trendChart(
        data,
        `trend-${t.name}`,
        t.name,
        t.name,
        `The script's Trend ${t.name}${t.time ? ' (a time, in ms)' : ''}: percentiles over each ${data.periodS} s period.`,
        t.time,
      ),
    ),
  ];
  return {
    charts: charts.map(withoutEmptySeries).filter((c) => c.series.length > 0),
    notes: [],
  };
}
