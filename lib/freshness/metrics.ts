// Experiment 3's own k6 metrics (init code of every VU; names and meanings: ./metric-keys.ts).
import { Counter, Gauge, Trend } from 'k6/metrics';
import { FRESHNESS_METRIC as M } from './metric-keys';

export const probesWritten = new Counter(M.probes);
export const probeFirstRead = new Counter(M.firstRead);
export const probeLag = new Trend(M.lag, true);
export const probeNeverSeen = new Counter(M.neverSeen);
export const probePartial = new Counter(M.partial);
export const probeLagError = new Trend(M.lagError, true);
export const probeRecentRecall = new Trend(M.recentRecall);
export const recallAtK = new Trend(M.recall);
export const writeAck = new Trend(M.writeAck, true);
export const writeErrors = new Counter(M.writeErrors);
export const rowsWritten = new Counter(M.rowsWritten);
export const snapshotUnindexed = new Gauge(M.snapshotUnindexed);
export const snapshotTime = new Gauge(M.snapshotTime);
export const windowStart = new Gauge(M.windowStart);
export const windowEnd = new Gauge(M.windowEnd);
export const pointBacklog = new Gauge(M.pointBacklog);
export const pointLag = new Trend(M.pointLag, true);
