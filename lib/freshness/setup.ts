// setup() of experiment 3: a fresh namespace, SEED_ROWS seeded vectors, a wait until they are indexed, and the
// bands' t0 for every VU (teardown: lib/namespace-lifecycle.ts).
import { drawSeed } from '../common-knobs';
import { compactTimestamp, fillFreshNamespace } from '../namespace-lifecycle';
import { nextTick, TICK_MS } from '../phase-machine';
import { seedRows, waitUntilIndexed } from '../seeding';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { FreshnessConfig } from './config';
import { formatFreshnessPlan, planFreshness } from './cost-plan';
import type { SetupData } from './setup-data';

export function makeSetup(config: FreshnessConfig, client: TurbopufferClient): () => SetupData {
  return () => {
    const startedAtMs = Date.now();
    const namespace = config.namespace ?? `bench-freshness-${compactTimestamp(startedAtMs)}`;
    const seed = drawSeed(config.seed);
    console.log(formatFreshnessPlan(config, planFreshness(config)));
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
      const indexed = waitUntilIndexed(
        client,
        namespace,
        deadline,
        `SETUP_TIMEOUT_S=${config.setupTimeoutS}`,
      );
      return {
        namespace,
        seed,
        // One spare tick so every VU has started before the idle band.
        t0: nextTick(Date.now()) + TICK_MS,
        startedAtMs,
        created: [namespace],
        emulator: config.target.kind === 'emulator' ? client.emulatorInfo() : null,
        indexed,
      };
    });
  };
}
