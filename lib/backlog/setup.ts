// setup() of experiment 1: a fresh namespace, SEED_ROWS seeded vectors, a wait until they are indexed
// (lib/seeding.ts), and the schedule's t0 for every VU (teardown: lib/namespace-lifecycle.ts).
import { seedFreshNamespace } from '../seeding';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { BacklogConfig } from './config';
import { formatPlan, planCost } from './cost-plan';
import { nextTick, TICK_MS } from './phases';
import type { SetupData } from './setup-data';

export function makeSetup(config: BacklogConfig, client: TurbopufferClient): () => SetupData {
  return () => {
    const plan = formatPlan(config, planCost(config));
    const { indexed, ...seeded } = seedFreshNamespace(
      { ...config, rows: config.seedRows },
      client,
      'bench-backlog',
      plan,
    );
    // One spare tick so every VU has started before the first cell.
    return { ...seeded, t0: nextTick(Date.now()) + TICK_MS, setupSnapshot: indexed };
  };
}
