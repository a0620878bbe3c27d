// The query metrics both experiments record, as k6 objects. Constructed at module load, i.e. in init code of every
// VU, as k6 requires (names and meanings: lib/metric-names.ts). Each experiment's own metrics live in its folder.
import { Counter, Trend } from 'k6/metrics';
import { METRIC } from './metric-names';

export const serverTotalMs = new Trend(METRIC.serverTotal, true);
export const queryExecutionMs = new Trend(METRIC.queryExecution, true);
export const exhaustiveSearchCount = new Trend(METRIC.exhaustiveSearch);
export const queryFromIntendedMs = new Trend(METRIC.fromIntended, true);
export const queryErrors = new Counter(METRIC.queryErrors);
