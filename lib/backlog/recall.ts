// Experiment 1's recall scenario (RECALL_RATE a second, beside the published query stream): in each cell's measured
// window, one ANN query at the cell's consistency scored against an exact kNN query of the same vector
// (lib/recall-sample.ts), so "eventual reads do not notice ingest" is checked for what they return, not only how
// fast. Strong kNN is refused above the backlog limit: those cells have no recall.
import exec from 'k6/execution';
import { MetadataPoller } from '../metadata-poll';
import { sampleRecall } from '../recall-sample';
import type { TurbopufferClient } from '../turbopuffer-client';
import { hash32, queryVector } from '../vectors';
import type { BacklogConfig } from './config';
import { recallAtK } from './metrics';
import { PhaseTracker } from './phase-tracker';
import { gatesOf, scheduleOf, TICK_MS } from './phases';
import type { SetupData } from './setup-data';

export function makeRecall(config: BacklogConfig, client: TurbopufferClient): (data: SetupData) => void {
  let tracker: PhaseTracker | undefined;
  return (data) => {
    tracker ??= new PhaseTracker(
      data.t0,
      scheduleOf(config),
      gatesOf(config),
      new MetadataPoller(() => client.metadata(data.namespace, { role: 'recall' }), TICK_MS),
    );
    const { slot } = tracker.update(Date.now(), false);
    if (slot.stage !== 'measuring' || !slot.phase || !slot.consistency) return;
    // Vectors of their own stream: not the query scenario's.
    const vector = queryVector(hash32(data.seed ^ 0x72656361), exec.scenario.iterationInTest, config.dims);
    const recall = sampleRecall(client, data.namespace, vector, config.topK, slot.consistency);
    if (recall !== null) recallAtK.add(recall, { phase: slot.phase, consistency: slot.consistency });
  };
}
