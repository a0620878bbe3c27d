// The top-k experiment as the launcher and the report find it (lib/experiment.ts): the smallest experiment, and
// the worked example of docs/adding-an-experiment.md.
import { defineExperiment } from '../experiment';
import { topKCharts } from './charts';
import { readTopKConfig } from './config';
import { topKOptions } from './options';
import { PROFILES } from './profiles';
import type { TopKResult } from './results/json';

export const experiment = defineExperiment<TopKResult>({
  name: 'top-k',
  title: 'Top-k: ANN latency by top_k on an idle namespace',
  profiles: PROFILES,
  options: (env) => topKOptions(readTopKConfig(env)),
  readResult(json) {
    if (Array.isArray(json.cells) && typeof json.rows === 'number')
      return { result: json as unknown as TopKResult };
    return { reason: 'a top-k result without cells or rows' };
  },
  charts: topKCharts,
  comparableCells: (r) =>
    r.cells.map((c) => ({
      key: `top_k ${c.top_k}/${c.consistency}`,
      client: c.client_ms,
      requests: c.requests,
      errors: c.errors,
      errorRate: c.requests > 0 ? c.errors / c.requests : null,
      successQps: c.qps,
      windowS: Number(r.config.QUERY_DURATION_S),
    })),
  // Nobody has published these figures yet.
  publishedCells: () => [],
  publishedDescription: 'no published figures',
});
