// setup()'s recall probes: for every vector-ranked cell, RECALL_QUERIES query vectors (the same numbers the cell's
// first queries use) sent as the cell's ANN query and as exact kNN with the same filter, one after another and
// untimed, so recall sits next to the latency of exactly those filters.

import type { TurbopufferClient } from '../turbopuffer-client';
import { queryVector } from '../vectors';
import { type QueryCell, ranksByVector } from './cells';
import type { FilterCostConfig } from './config';
import { queryBody } from './query-body';
import { recallAt, summarizeRecall } from './recall';
import type { RecallStats } from './setup-data';

export function probeRecall(
  c: FilterCostConfig,
  client: TurbopufferClient,
  namespace: string,
  seed: number,
  cells: readonly QueryCell[],
): Record<string, RecallStats> {
  const out: Record<string, RecallStats> = {};
  if (c.recallQueries === 0) return out;
  for (const cell of cells.filter(ranksByVector)) {
    const values: number[] = [];
    let failed = 0;
    for (let n = 0; n < c.recallQueries; n++) {
      const vector = queryVector(seed, n, c.dims);
      const tags = { phase: 'recall', cell: cell.id };
      const ann = client.query(namespace, queryBody(c, cell, vector), tags);
      const exact = client.query(namespace, queryBody(c, cell, vector, true), tags);
      const recall =
        ann.status === 200 && exact.status === 200
          ? recallAt(
              (ann.body?.rows ?? []).map((r) => r.id),
              (exact.body?.rows ?? []).map((r) => r.id),
            )
          : null;
      if (recall === null) failed++;
      else values.push(recall);
    }
    out[cell.id] = { ...summarizeRecall(values), failed };
  }
  return out;
}
