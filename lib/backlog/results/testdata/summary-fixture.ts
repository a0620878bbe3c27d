// A handleSummary `data` object as k6 builds it for a short run: every cell measured, strong reads above the limit
// rejected with 429. Values are made up but shaped exactly like the sub-metric keys the script declares, the time
// series' buckets included (1 s buckets: PHASE_TIMEOUT_S 10 bounds the run at 62 s).

import { subMetric } from '../../../metric-names';
import type { SummaryData, SummaryMetric } from '../../../results/summary-data';
import { FIXTURE_EMULATOR } from '../../../results/testdata/emulator-info';
import { metadataSeriesKeys, querySeriesKeys } from '../../../time-series';
import type { BacklogConfig } from '../../config';
import { readBacklogConfig } from '../../config';
import { cellKeys } from '../../metric-keys';
import { CONSISTENCIES, PHASES } from '../../phases';
import { SMALL_ENV } from '../../testdata/small-env';
import type { RunInfo } from '../json';

const MiB = 2 ** 20;
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

export const fixtureConfig: BacklogConfig = readBacklogConfig({
  ...SMALL_ENV,
  QUERY_RATE: '20',
  PHASE_TIMEOUT_S: '10',
  SEED: '42',
  TURBOPUFFER_BASE_URL: 'http://127.0.0.1:8787',
});

export const fixtureRun: RunInfo = {
  namespace: 'bench-backlog-fixture',
  seed: 42,
  startedAtMs: T0 - 10_000,
  finishedAtMs: T0 + 64_000,
  t0: T0,
  setupSnapshot: { timeMs: T0 - 1000, unindexedBytes: 0, approxRowCount: 1000 },
  emulator: FIXTURE_EMULATOR,
  versions: {
    bench: '0.1.0',
    commit: 'abc1234',
    dirty: false,
    built_at: null,
    runner: 'bench 0.1.0',
    node: 'v20.19.0',
  },
};

const trend = (med: number, p95: number, p99: number, max: number): SummaryMetric => ({
  type: 'trend',
  contains: 'time',
  values: { avg: med, min: med / 2, med, max, 'p(95)': p95, 'p(99)': p99, count: 100 },
});
const gauge = (value: number): SummaryMetric => ({
  type: 'gauge',
  values: { value, min: value, max: value },
});
const counter = (count: number): SummaryMetric => ({ type: 'counter', values: { count, rate: count / 70 } });

export function fixtureSummary(): SummaryData {
  const metrics: Record<string, SummaryMetric> = {
    dropped_iterations: counter(0),
    rows_written: counter(7650),
    write_errors: counter(2),
  };
  let cellIndex = 0;
  for (const phase of PHASES) {
    for (const consistency of CONSISTENCIES) {
      const k = cellKeys(phase, consistency);
      const strongAbove = phase === 'indexing_above_limit' && consistency === 'strong';
      const level = PHASES.indexOf(phase);
      const requests = 100;
      const errors = strongAbove ? 45 : 0;
      metrics[k.requests] = counter(requests);
      metrics[k.failed] = {
        type: 'rate',
        values: { rate: errors / requests, passes: errors, fails: requests - errors },
      };
      metrics[k.errors('429')] = counter(errors);
      metrics[k.errors('5xx')] = counter(0);
      metrics[k.clientOk] = trend(2.5 + level, 4.25 + 2 * level, 8 + 3 * level, 20);
      metrics[k.server] = trend(1 + level, 2 + level, 3 + level, 9);
      metrics[k.execution] = trend(0.5 + level, 1 + level, 2 + level, 5);
      metrics[k.fromIntended] = trend(3 + level, 5 + level, 9 + level, 21);
      metrics[k.exhaustive] = {
        type: 'trend',
        values: { med: level * 1000, max: level * 2000, 'p(95)': 0, 'p(99)': 0 },
      };
      const start = T0 + cellIndex * 6000 + 1000;
      const backlog = [0, 3 * MiB, 9 * MiB][level];
      metrics[k.windowStart] = gauge(start);
      metrics[k.windowEnd] = gauge(start + 5000);
      metrics[k.time('start')] = gauge(start + 200);
      metrics[k.time('end')] = gauge(start + 4800);
      metrics[k.unindexed('start')] = gauge(backlog);
      metrics[k.unindexed('end')] = gauge(backlog + 0.5 * MiB * level);
      metrics[k.rows('start')] = gauge(1000 + level * 500);
      metrics[k.rows('end')] = gauge(1000 + level * 600);
      // Recall samples: none where strong kNN is refused (above the limit, strong); eventual loses a little there.
      if (!strongAbove)
        metrics[k.recall] = {
          type: 'trend',
          values: {
            avg: consistency === 'eventual' && level === 2 ? 0.9 : 0.95,
            min: 0.8,
            med: 1,
            max: 1,
            count: 5,
          },
        };
      // The window's five 1 s buckets: 20 queries each, the last one's p50 a millisecond slower.
      for (let b = 0; b < 5; b++) {
        const q = querySeriesKeys(String(cellIndex * 6 + 1 + b), consistency);
        metrics[q.requests] = counter(20);
        metrics[q.errors('429')] = counter(strongAbove ? 9 : 0);
        metrics[q.errors('5xx')] = counter(0);
        metrics[q.clientOk] = trend(2.5 + level + (b === 4 ? 1 : 0), 4 + level, 6 + level, 7 + level);
        metrics[q.server] = trend(1 + level, 2 + level, 3 + level, 4 + level);
      }
      cellIndex++;
    }
  }
  // One poll per second until 35 s (the backlog climbs by 1 MiB a second from 12 s), writes from 12 s on: 500 rows
  // a second written, 200 of them indexed (approx_row_count counts the rows indexed).
  for (let ts = 0; ts < 36; ts++) {
    const m = metadataSeriesKeys(String(ts));
    metrics[m.time] = gauge(T0 + ts * 1000 + 250);
    metrics[m.unindexedBytes] = gauge(Math.max(0, ts - 11) * MiB);
    metrics[m.rowCount] = gauge(1000 + Math.max(0, ts - 11) * 200);
    metrics[m.unindexedRows] = gauge(ts < 30 ? Math.max(0, ts - 11) * 300 : -1);
    if (ts >= 12) metrics[subMetric('rows_written', { ts: String(ts) })] = counter(500);
  }
  return { metrics };
}
