// Every query scenario's iteration: the window is the scenario's name (the JIT warm-up runs the first
// configuration's ann_only at eventual). Queries sent in a window's first QUERY_WARMUP_S seconds (by the arrival
// schedule, or by the clock for closed-loop workers) are tagged shape=warmup; the rest carry the window's config,
// shape, selectivity and consistency tags, and every query its time-series bucket (`ts`). Query vector n is the
// scenario's iteration n, so a cell's strong and eventual windows, and every configuration (one SEED), ask the same
// questions.
import exec from 'k6/execution';
import { intendedStartMs, recordQuery } from '../query-samples';
import { recordOrigin } from '../series-metrics';
import { STATUS_PREFIX } from '../status-lines';
import { bucketTag, SERIES_TAG, type SeriesClock } from '../time-series';
import type { TurbopufferClient } from '../turbopuffer-client';
import { queryVector } from '../vectors';
import type { QueryCell } from './cells';
import type { FilterCostConfig } from './config';
import { cellTags, WARMUP_SHAPE } from './metric-keys';
import { queryReturnedRows } from './metrics';
import { windowStartLine } from './progress';
import { queryBody } from './query-body';
import { queryClock } from './series';
import type { SetupData } from './setup-data';
import type { Timeline } from './timeline';

export function makeQuery(
  c: FilterCostConfig,
  client: TurbopufferClient,
  plan: Timeline,
  firstCell: QueryCell,
): (data: SetupData) => void {
  const byScenario = new Map(plan.windows.map((w) => [w.scenario, w]));
  const indexOf = new Map(plan.windows.map((w, i) => [w.scenario, i]));
  let namespaces: Map<string, string> | undefined;
  let clock: SeriesClock | undefined;
  return (data) => {
    namespaces ??= new Map(data.configurations.map((x) => [x.name, x.namespace]));
    const scenario = exec.scenario;
    const n = scenario.iterationInTest;
    const window = byScenario.get(scenario.name);
    if (!clock) {
      // Every scenario starts at its offset from the end of setup: that end is the query clock's t = 0.
      clock = queryClock(plan, scenario.startTime - (window?.startMs ?? 0));
      recordOrigin(clock.originMs);
    }
    if (n === 0 && window)
      console.log(`${STATUS_PREFIX}${windowStartLine(plan, indexOf.get(scenario.name) ?? 0)}`);
    const cell = window?.cell ?? firstCell;
    const consistency = window?.consistency ?? 'eventual';
    const intended = intendedStartMs(c.load, scenario.startTime, n);
    const offsetMs = (intended ?? Date.now()) - scenario.startTime;
    const measured = window !== undefined && offsetMs >= window.warmupMs;
    const tags = cellTags(cell, consistency);
    if (!measured) tags.shape = WARMUP_SHAPE;
    tags[SERIES_TAG] = bucketTag(clock, Date.now());
    const namespace = namespaces.get(cell.configuration) as string;
    const res = client.query(
      namespace,
      queryBody(cell, consistency, c.topK, queryVector(data.seed, n, c.dims)),
      tags,
    );
    if (!recordQuery(res, tags, intended)) return;
    queryReturnedRows.add(res.body?.rows?.length ?? 0, tags);
  };
}
