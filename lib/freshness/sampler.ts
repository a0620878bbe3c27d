// The sampled query stream (QUERY_MODE's load): each iteration sends one ANN query at strong and one at eventual
// consistency, then the same vector as an exact kNN at strong consistency, whose answer is the truth the two are
// scored against (recall@k over every acknowledged row); latencies go to the band's cells as experiment 1's do.
import { sleep } from 'k6';
import exec from 'k6/execution';
import type { PhaseTracker } from '../phase-tracker';
import { intendedStartMs, recordQuery } from '../query-samples';
import { recallAtK } from '../recall-at-k';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { Consistency } from '../turbopuffer-wire';
import { queryVector } from '../vectors';
import { bandTag, bandTracker } from './band-view';
import type { FreshnessConfig } from './config';
import { sampleTags } from './metric-keys';
import { recallAtK as recallTrend } from './metrics';
import type { SetupData } from './setup-data';

export function makeSampler(config: FreshnessConfig, client: TurbopufferClient): (data: SetupData) => void {
  let tracker: PhaseTracker | undefined;
  return (data) => {
    tracker ??= bandTracker(config, data.t0, () => client.metadata(data.namespace, { role: 'query' }));
    const { slot } = tracker.update(Date.now(), false);
    if (slot.stage === 'done') {
      if (config.load.mode === 'workers') sleep(1);
      return;
    }
    const band = bandTag(slot);
    const vector = queryVector(data.seed, exec.scenario.iterationInTest, config.dims);
    const intended = intendedStartMs(config.load, exec.scenario.startTime, exec.scenario.iterationInTest);
    const answers: Partial<Record<Consistency, (number | string)[]>> = {};
    for (const consistency of ['strong', 'eventual'] as const) {
      const tags = sampleTags(band, consistency, 'ann');
      const res = client.query(
        data.namespace,
        { rank_by: ['vector', 'ANN', vector], top_k: config.topK, consistency: { level: consistency } },
        tags,
      );
      if (recordQuery(res, tags, consistency === 'strong' ? intended : undefined))
        answers[consistency] = (res.body?.rows ?? []).map((r) => r.id);
    }
    const truth = client.query(
      data.namespace,
      { rank_by: ['vector', 'kNN', vector], top_k: config.topK, consistency: { level: 'strong' } },
      sampleTags(band, 'strong', 'knn'),
    );
    if (truth.status !== 200) return;
    const exact = (truth.body?.rows ?? []).map((r) => r.id);
    for (const consistency of ['strong', 'eventual'] as const) {
      const got = answers[consistency];
      if (got) recallTrend.add(recallAtK(got, exact), { band, consistency });
    }
  };
}
