// Experiment 2's own custom metrics as k6 objects (init code of every VU). The server-side trends and the error
// counter are the shared ones of lib/metrics.ts, recorded by lib/query-samples.ts, so both experiments name them alike.
import { Trend } from 'k6/metrics';
import { FILTER_COST_METRIC } from './metric-keys';

export const queryBillableBytes = new Trend(FILTER_COST_METRIC.billableQueried);
export const queryReturnedRows = new Trend(FILTER_COST_METRIC.returnedRows);
