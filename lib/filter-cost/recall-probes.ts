// setup()'s probes of one configuration, once its index is up to date: for every ANN cell, recall@10 at each
// consistency from RECALL_QUERIES query vectors (the same numbers the cell's first queries use) sent as the cell's
// ANN query and compared with exact kNN under the same filter; and for every filter, the rows it matches, counted by
// the service (aggregate Count), so a cell's selectivity is measured, not assumed. Sequential and untimed.
import type { TurbopufferClient } from '../turbopuffer-client';
import type { Consistency } from '../turbopuffer-wire';
import { queryVector } from '../vectors';
import { CONSISTENCIES, distinctFilters, type QueryCell, ranksByVector } from './cells';
import type { FilterCostConfig } from './config';
import { COUNT_LABEL, countBody, queryBody } from './query-body';
import { recallAt, summarizeRecall } from './recall';
import type { RecallStats } from './setup-data';

/** Recall is always recall@10, whatever TOP_K the cells use. */
const RECALL_K = 10;

export function probeRecall(
  c: FilterCostConfig,
  client: TurbopufferClient,
  namespace: string,
  seed: number,
  cells: readonly QueryCell[],
): Record<string, Record<Consistency, RecallStats>> {
  const out: Record<string, Record<Consistency, RecallStats>> = {};
  if (c.recallQueries === 0) return out;
  for (const cell of cells.filter(ranksByVector)) {
    const tags = { phase: 'recall', config: cell.configuration };
    const values: Record<Consistency, number[]> = { strong: [], eventual: [] };
    const failed: Record<Consistency, number> = { strong: 0, eventual: 0 };
    for (let n = 0; n < c.recallQueries; n++) {
      const vector = queryVector(seed, n, c.dims);
      const exact = client.query(namespace, queryBody(cell, 'strong', RECALL_K, vector, true), tags);
      const truth = exact.status === 200 ? (exact.body?.rows ?? []).map((r) => r.id) : null;
      for (const consistency of CONSISTENCIES) {
        const ann = client.query(namespace, queryBody(cell, consistency, RECALL_K, vector), tags);
        const recall =
          truth && ann.status === 200
            ? recallAt(
                (ann.body?.rows ?? []).map((r) => r.id),
                truth,
              )
            : null;
        if (recall === null) failed[consistency]++;
        else values[consistency].push(recall);
      }
    }
    out[cell.id] = {
      strong: { ...summarizeRecall(values.strong), failed: failed.strong },
      eventual: { ...summarizeRecall(values.eventual), failed: failed.eventual },
    };
  }
  return out;
}

/** Rows each of the configuration's filters matches, by selectivity tag (null when the count failed). */
export function countMatches(
  client: TurbopufferClient,
  namespace: string,
  cells: readonly QueryCell[],
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const cell of distinctFilters(cells)) {
    const res = client.query(namespace, countBody(cell), { phase: 'count', config: cell.configuration });
    const n = res.status === 200 ? res.body?.aggregations?.[COUNT_LABEL] : undefined;
    out[cell.selectivityTag] = typeof n === 'number' ? n : null;
  }
  return out;
}
