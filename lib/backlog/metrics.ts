// Experiment 1's writer gauges and counters as k6 objects (init code of every VU; names: ./metric-keys.ts).
import { Counter, Gauge, Trend } from 'k6/metrics';
import { BACKLOG_METRIC } from './metric-keys';

export const snapshotUnindexed = new Gauge(BACKLOG_METRIC.snapshotUnindexed);
export const snapshotRows = new Gauge(BACKLOG_METRIC.snapshotRows);
export const snapshotTime = new Gauge(BACKLOG_METRIC.snapshotTime);
export const windowStart = new Gauge(BACKLOG_METRIC.windowStart);
export const windowEnd = new Gauge(BACKLOG_METRIC.windowEnd);
export const backlogBytes = new Gauge(BACKLOG_METRIC.backlog);
export const rowsWritten = new Counter(BACKLOG_METRIC.rowsWritten);
export const writeErrors = new Counter(BACKLOG_METRIC.writeErrors);
export const recallAtK = new Trend(BACKLOG_METRIC.recall);
