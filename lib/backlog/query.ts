// The query scenario's iteration: one ANN query whose consistency and `phase` tag come from this VU's phase
// tracker; server timings recorded as custom trends with the same tags. After the last cell it does nothing.
import exec from 'k6/execution';
import type { BacklogConfig } from '../backlog-config';
import { MetadataPoller } from '../metadata-poll';
import { errorClass } from '../metric-names';
import {
  exhaustiveSearchCount,
  queryErrors,
  queryExecutionMs,
  queryFromIntendedMs,
  serverTotalMs,
} from '../metrics';
import { PhaseTracker } from '../phase-tracker';
import { phaseTag } from '../phases';
import { gatesOf, scheduleOf } from '../scenario-options';
import type { TurbopufferClient } from '../turbopuffer-client';
import { queryVector } from '../vectors';
import type { SetupData } from './setup-data';

export function makeQuery(config: BacklogConfig, client: TurbopufferClient): (data: SetupData) => void {
  let tracker: PhaseTracker | undefined;
  return (data) => {
    tracker ??= new PhaseTracker(
      data.t0,
      scheduleOf(config),
      gatesOf(config),
      new MetadataPoller(() => client.metadata(data.namespace, { role: 'query' })),
    );
    const { slot } = tracker.update(Date.now(), false);
    if (slot.stage === 'done') return;
    // Between cells the load goes on (eventual, tagged `transition`) so the service sees a steady stream.
    const tags = { phase: phaseTag(slot), consistency: slot.consistency ?? 'eventual' };
    const res = client.query(
      data.namespace,
      {
        rank_by: ['vector', 'ANN', queryVector(data.seed, exec.scenario.iterationInTest, config.dims)],
        top_k: config.topK,
        consistency: { level: tags.consistency },
      },
      tags,
    );
    const intendedStart = exec.scenario.startTime + (exec.scenario.iterationInTest * 1000) / config.queryRate;
    queryFromIntendedMs.add(Date.now() - intendedStart, tags);
    if (res.status !== 200) {
      queryErrors.add(1, { ...tags, status: String(res.status), error_class: errorClass(res.status) });
      return;
    }
    const perf = res.body?.performance;
    if (perf?.server_total_ms !== undefined) serverTotalMs.add(perf.server_total_ms, tags);
    if (perf?.query_execution_ms !== undefined) queryExecutionMs.add(perf.query_execution_ms, tags);
    if (perf?.exhaustive_search_count !== undefined)
      exhaustiveSearchCount.add(perf.exhaustive_search_count, tags);
  };
}
