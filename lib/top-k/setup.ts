// setup() of the top-k experiment: a fresh namespace, ROWS seeded vectors, a wait until they are indexed.
import { drawSeed } from '../common-knobs';
import { compactTimestamp, fillFreshNamespace } from '../namespace-lifecycle';
import { seedRows, waitUntilIndexed } from '../seeding';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { TopKConfig } from './config';
import { formatTopKPlan, planTopK } from './cost-plan';
import type { SetupData } from './setup-data';

export function makeSetup(config: TopKConfig, client: TurbopufferClient): () => SetupData {
  return () => {
    const startedAtMs = Date.now();
    const namespace = config.namespace ?? `bench-top-k-${compactTimestamp(startedAtMs)}`;
    const seed = drawSeed(config.seed);
    console.log(formatTopKPlan(config, planTopK(config)));
    console.log(`namespace ${namespace}, seed ${seed} (rerun with SEED=${seed} for the same vectors)`);
    return fillFreshNamespace(client, namespace, config.cleanup, () => {
      seedRows(client, namespace, {
        seed,
        rows: config.rows,
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
        startedAtMs,
        created: [namespace],
        scenariosStartMs: Date.now(),
        emulator: config.target.kind === 'emulator' ? client.emulatorInfo() : null,
        indexed,
      };
    });
  };
}
