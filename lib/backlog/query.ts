// Experiment 1's query iteration: one ANN query whose consistency and `phase` tag come from this VU's phase
// tracker, its time-series bucket as the `ts` tag; its samples recorded with the same tags (lib/query-samples.ts).
// After the last cell it sends nothing (a closed-loop worker idles a second instead).
import { sleep } from 'k6';
import exec from 'k6/execution';
import { MetadataPoller } from '../metadata-poll';
import { intendedStartMs, recordQuery } from '../query-samples';
import { bucketTag, SERIES_TAG, type SeriesClock } from '../time-series';
import type { TurbopufferClient } from '../turbopuffer-client';
import { queryVector } from '../vectors';
import type { BacklogConfig } from './config';
import { PhaseTracker } from './phase-tracker';
import { gatesOf, phaseTag, scheduleOf, TICK_MS } from './phases';
import { backlogClock } from './series';
import type { SetupData } from './setup-data';

export function makeQuery(config: BacklogConfig, client: TurbopufferClient): (data: SetupData) => void {
  let tracker: PhaseTracker | undefined;
  let clock: SeriesClock | undefined;
  return (data) => {
    clock ??= backlogClock(config, data.t0);
    tracker ??= new PhaseTracker(
      data.t0,
      scheduleOf(config),
      gatesOf(config),
      new MetadataPoller(() => client.metadata(data.namespace, { role: 'query' }), TICK_MS),
    );
    const { slot } = tracker.update(Date.now(), false);
    if (slot.stage === 'done') {
      // A closed-loop worker whose iterations returned at once would spin until the scenario's end (phases often end
      // well before the bound it is sized for); an arrival-rate iteration is paced by its executor already.
      if (config.load.mode === 'workers') sleep(1);
      return;
    }
    // Between cells the load goes on (eventual, tagged `transition`) so the service sees a steady stream.
    const tags = {
      phase: phaseTag(slot),
      consistency: slot.consistency ?? 'eventual',
      [SERIES_TAG]: bucketTag(clock, Date.now()),
    };
    const res = client.query(
      data.namespace,
      {
        rank_by: ['vector', 'ANN', queryVector(data.seed, exec.scenario.iterationInTest, config.dims)],
        top_k: config.topK,
        consistency: { level: tags.consistency },
      },
      tags,
    );
    recordQuery(
      res,
      tags,
      intendedStartMs(config.load, exec.scenario.startTime, exec.scenario.iterationInTest),
    );
  };
}
