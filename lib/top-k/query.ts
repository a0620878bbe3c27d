// The top-k experiment's query iteration: one ANN query with its window's top_k, tagged with the cell (`top_k`)
// and `phase: warmup` or `measured`; its samples recorded as every experiment records them (lib/query-samples.ts).
import exec from 'k6/execution';
import { intendedStartMs, recordQuery } from '../query-samples';
import type { TurbopufferClient } from '../turbopuffer-client';
import { queryVector } from '../vectors';
import type { TopKConfig } from './config';
import { windowOf, windows } from './schedule';
import type { SetupData } from './setup-data';

export function makeQuery(config: TopKConfig, client: TurbopufferClient): (data: SetupData) => void {
  const plan = windows(config);
  return (data) => {
    const window = windowOf(plan, exec.scenario.name);
    if (!window) throw new Error(`scenario ${exec.scenario.name} is not a window of this run`);
    const measured = Date.now() - exec.scenario.startTime >= window.warmupMs;
    const tags = {
      top_k: String(window.topK),
      phase: measured ? 'measured' : 'warmup',
      consistency: config.consistency,
    };
    const res = client.query(
      data.namespace,
      {
        rank_by: ['vector', 'ANN', queryVector(data.seed, exec.scenario.iterationInTest, config.dims)],
        top_k: window.topK,
        consistency: { level: config.consistency },
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
