// The custom metrics as k6 objects: the query trends and error counter both experiments record, and experiment 1's
// writer gauges and counters. Constructed at module load, i.e. in init code of every VU, as k6 requires (names and
// meanings: lib/metric-names.ts).
import { Counter, Gauge, Trend } from 'k6/metrics';
import { METRIC } from './metric-names';

export const serverTotalMs = new Trend(METRIC.serverTotal, true);
export const queryExecutionMs = new Trend(METRIC.queryExecution, true);
export const exhaustiveSearchCount = new Trend(METRIC.exhaustiveSearch);
export const queryFromIntendedMs = new Trend(METRIC.fromIntended, true);
export const queryErrors = new Counter(METRIC.queryErrors);
export const snapshotUnindexed = new Gauge(METRIC.snapshotUnindexed);
export const snapshotRows = new Gauge(METRIC.snapshotRows);
export const snapshotTime = new Gauge(METRIC.snapshotTime);
export const windowStart = new Gauge(METRIC.windowStart);
export const windowEnd = new Gauge(METRIC.windowEnd);
export const backlogBytes = new Gauge(METRIC.backlog);
export const rowsWritten = new Counter(METRIC.rowsWritten);
export const writeErrors = new Counter(METRIC.writeErrors);
