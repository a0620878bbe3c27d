// One query's samples as both experiments record them, under the query's tags: its latency from the intended start
// on the arrival schedule, a failure by status and error class, or the server's performance figures. Init-time k6
// metrics (lib/metrics.ts); the caller sends the query and adds its experiment's own samples.
import type { QueryLoad } from './common-knobs';
import { errorClass } from './metric-names';
import {
  exhaustiveSearchCount,
  queryErrors,
  queryExecutionMs,
  queryFromIntendedMs,
  serverTotalMs,
} from './metrics';
import type { CallResult, Tags } from './turbopuffer-client';
import type { QueryResponse } from './turbopuffer-wire';

/**
 * When iteration `n` of the query scenario was due: scenario start + n / rate on an arrival schedule, so latency
 * measured from there counts a late start too (coordinated omission). A closed loop has no schedule: undefined.
 */
export function intendedStartMs(load: QueryLoad, scenarioStartMs: number, n: number): number | undefined {
  return load.mode === 'arrival' ? scenarioStartMs + (n * 1000) / load.rate : undefined;
}

/** Records the answer's samples; true when the query succeeded (200), so the caller may read its body. */
export function recordQuery(
  res: CallResult<QueryResponse>,
  tags: Tags,
  intendedAtMs: number | undefined,
): boolean {
  if (intendedAtMs !== undefined) queryFromIntendedMs.add(Date.now() - intendedAtMs, tags);
  if (res.status !== 200) {
    queryErrors.add(1, { ...tags, status: String(res.status), error_class: errorClass(res.status) });
    return false;
  }
  const perf = res.body?.performance;
  // The emulator's precise fields first: the service's (and the SDKs') integers read 0 for sub-millisecond answers.
  const serverTotal = perf?.emulator_server_total_ms ?? perf?.server_total_ms;
  const execution = perf?.emulator_query_execution_ms ?? perf?.query_execution_ms;
  if (serverTotal !== undefined) serverTotalMs.add(serverTotal, tags);
  if (execution !== undefined) queryExecutionMs.add(execution, tags);
  if (perf?.exhaustive_search_count !== undefined)
    exhaustiveSearchCount.add(perf.exhaustive_search_count, tags);
  return true;
}
