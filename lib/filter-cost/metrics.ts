// Experiment 2's own custom metrics as k6 objects (init code of every VU; names: ./metric-keys.ts). The query
// trends and error counter are the shared ones of lib/metrics.ts, recorded by lib/query-samples.ts.
import { Counter, Gauge, Trend } from 'k6/metrics';
import { FILTER_COST_METRIC } from './metric-keys';

export const queryReturnedRows = new Trend(FILTER_COST_METRIC.returnedRows);
export const selectivityRatio = new Gauge(FILTER_COST_METRIC.selectivityRatio);
export const writeRetries429 = new Counter(FILTER_COST_METRIC.writeRetries429);
export const writeErrors = new Counter(FILTER_COST_METRIC.writeErrors);
