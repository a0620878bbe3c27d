// Every query scenario's iteration: the cell is the scenario's name (the JIT warm-up runs ann_only); iterations
// inside the cell's warm-up seconds are tagged shape=warmup, the rest carry the cell's shape and selectivity tags.
// Query vector n is the scenario's iteration number n, so every cell and every configuration (same SEED) asks the
// same questions.
import exec from 'k6/execution';
import { intendedStartMs, recordQuery } from '../query-samples';
import type { TurbopufferClient } from '../turbopuffer-client';
import { queryVector } from '../vectors';
import type { QueryCell } from './cells';
import type { FilterCostConfig } from './config';
import { cellTags, WARMUP_SHAPE } from './metric-keys';
import { queryBillableBytes, queryReturnedRows } from './metrics';
import { warmupIterations } from './options';
import { queryBody } from './query-body';
import type { SetupData } from './setup-data';

export function makeQuery(
  c: FilterCostConfig,
  client: TurbopufferClient,
  cells: readonly QueryCell[],
): (data: SetupData) => void {
  const byId = new Map(cells.map((cell) => [cell.id, cell]));
  const warmup = warmupIterations(c);
  return (data) => {
    const scenario = exec.scenario;
    const cell = byId.get(scenario.name);
    const n = scenario.iterationInTest;
    const measured = cell !== undefined && n >= warmup;
    const target = cell ?? cells[0];
    const tags = measured ? cellTags(target) : { shape: WARMUP_SHAPE, selectivity: target.selectivity };
    const res = client.query(data.namespace, queryBody(c, target, queryVector(data.seed, n, c.dims)), tags);
    if (!recordQuery(res, tags, intendedStartMs(scenario.startTime, n, c.queryRate))) return;
    const billed = res.body?.billing?.billable_logical_bytes_queried;
    if (billed !== undefined) queryBillableBytes.add(billed, tags);
    queryReturnedRows.add(res.body?.rows?.length ?? 0, tags);
  };
}
