// setup() of experiment 1: create a fresh namespace, write SEED_ROWS seeded vectors, wait until they are indexed,
// and hand the schedule's t0 to every VU (teardown: lib/namespace-lifecycle.ts).
import { drawSeed } from '../common-knobs';
import { compactTimestamp, fillFreshNamespace } from '../namespace-lifecycle';
import { seedRows, waitUntilIndexed } from '../seeding';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { BacklogConfig } from './config';
import { formatPlan, planCost } from './cost-plan';
import { nextTick, TICK_MS } from './phases';
import type { SetupData } from './setup-data';

export function makeSetup(config: BacklogConfig, client: TurbopufferClient): () => SetupData {
  return () => {
    const startedAtMs = Date.now();
    const namespace = config.namespace ?? `bench-backlog-${compactTimestamp(startedAtMs)}`;
    const seed = drawSeed(config.seed);
    console.log(formatPlan(config, planCost(config)));
    console.log(`namespace ${namespace}, seed ${seed} (rerun with SEED=${seed} for the same vectors)`);
    return fillFreshNamespace(client, namespace, config.cleanup, () => {
      seedRows(client, namespace, {
        seed,
        rows: config.seedRows,
        dims: config.dims,
        batchRows: config.seedBatchRows,
      });
      // A margin inside setupTimeout, so the failure is ours (with a message), not the runner's timeout.
      const deadline = startedAtMs + config.setupTimeoutS * 1000 - 5000;
      const snapshot = waitUntilIndexed(
        client,
        namespace,
        deadline,
        `SETUP_TIMEOUT_S=${config.setupTimeoutS}`,
      );
      return {
        namespace,
        seed,
        // One spare tick so every VU has started before the first cell.
        t0: nextTick(Date.now()) + TICK_MS,
        startedAtMs,
        created: [namespace],
        emulator: config.target.kind === 'emulator' ? client.emulatorInfo() : null,
        setupSnapshot: snapshot,
      };
    });
  };
}
