// setup() of experiment 3: a fresh namespace, SEED_ROWS seeded vectors, a wait until they are indexed
// (lib/seeding.ts), and the bands' t0 for every VU (teardown: lib/namespace-lifecycle.ts).
import { nextTick, TICK_MS } from '../phase-machine';
import { seedFreshNamespace } from '../seeding';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { FreshnessConfig } from './config';
import { formatFreshnessPlan, planFreshness } from './cost-plan';
import type { SetupData } from './setup-data';

export function makeSetup(config: FreshnessConfig, client: TurbopufferClient): () => SetupData {
  return () => {
    const plan = formatFreshnessPlan(config, planFreshness(config));
    const seeded = seedFreshNamespace({ ...config, rows: config.seedRows }, client, 'bench-freshness', plan);
    // One spare tick so every VU has started before the idle band.
    return { ...seeded, t0: nextTick(Date.now()) + TICK_MS };
  };
}
