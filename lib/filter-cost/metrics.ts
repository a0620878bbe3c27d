// Experiment 2's custom metrics as k6 objects (init code of every VU). The server-side trends and the error counter
// are the shared ones of lib/metrics.ts, so both experiments name them the same.
import { Trend } from 'k6/metrics';
import { FILTER_COST_METRIC } from './metric-keys';

export {
  exhaustiveSearchCount,
  queryErrors,
  queryExecutionMs,
  queryFromIntendedMs,
  serverTotalMs,
} from '../metrics';
export const queryBillableBytes = new Trend(FILTER_COST_METRIC.billableQueried);
export const queryReturnedRows = new Trend(FILTER_COST_METRIC.returnedRows);
