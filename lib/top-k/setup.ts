// setup() of the top-k experiment: a fresh namespace, ROWS seeded vectors, a wait until they are indexed
// (lib/seeding.ts); the windows start when it returns.
import { seedFreshNamespace } from '../seeding';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { TopKConfig } from './config';
import { formatTopKPlan, planTopK } from './cost-plan';
import type { SetupData } from './setup-data';

export function makeSetup(config: TopKConfig, client: TurbopufferClient): () => SetupData {
  return () => {
    const plan = formatTopKPlan(config, planTopK(config));
    const seeded = seedFreshNamespace({ ...config, rows: config.rows }, client, 'bench-top-k', plan);
    return { ...seeded, scenariosStartMs: Date.now() };
  };
}
