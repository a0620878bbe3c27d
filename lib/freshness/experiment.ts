// Experiment 3, how fresh reads are while indexing, as the launcher and the report find it (lib/experiment.ts).
import { defineExperiment } from '../experiment';
import { freshnessCharts } from './charts';
import { readFreshnessConfig } from './config';
import { freshnessOptions } from './options';
import { PROFILES } from './profiles';
import type { FreshnessResult } from './results/json';

export const experiment = defineExperiment<FreshnessResult>({
  name: 'freshness',
  title: 'Experiment 3: how fresh are reads while indexing?',
  profiles: PROFILES,
  options: (env) => freshnessOptions(readFreshnessConfig(env)),
  readResult(json) {
    if (Array.isArray(json.visibility) && Array.isArray(json.bands))
      return { result: json as unknown as FreshnessResult };
    return { reason: 'a freshness result without visibility rows or bands' };
  },
  charts: freshnessCharts,
  // One cell per band and consistency: the sampled ANN queries' latency.
  comparableCells: (r) =>
    r.queries.map((q) => ({
      key: `${q.band}/${q.consistency}`,
      client: q.client_ms,
      requests: q.requests,
      errors: q.errors,
      errorRate: q.requests > 0 ? q.errors / q.requests : null,
      successQps: (q.requests - q.errors) / Number(r.config.BAND_DURATION_S),
      windowS: Number(r.config.BAND_DURATION_S),
    })),
  // Nobody has published freshness figures: the documented claims are set against each run in its report instead.
  publishedCells: () => [],
  publishedDescription: 'no published figures',
});
