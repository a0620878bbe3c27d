// setup() of experiment 2: create a fresh namespace for this configuration, ingest ROWS rows, wait until they are
// indexed (the drain), read the storage signals, probe recall, and hand it all to every VU and to handleSummary
// (teardown: lib/namespace-lifecycle.ts).
import { drawSeed } from '../common-knobs';
import { compactTimestamp, fillFreshNamespace } from '../namespace-lifecycle';
import { formatBytes } from '../sizes';
import type { TurbopufferClient } from '../turbopuffer-client';
import { BacklogSampler } from './backlog-sampler';
import type { QueryCell } from './cells';
import type { FilterCostConfig } from './config';
import { formatFilterCostPlan, planFilterCost } from './cost-plan';
import { ingest } from './ingest';
import { probeRecall } from './recall-probes';
import type { SetupData } from './setup-data';

/** Metadata poll interval: fine-grained on the free local emulator, once a second on the billed service. */
function pollMs(c: FilterCostConfig): number {
  return c.target.kind === 'emulator' ? 250 : 1000;
}

export function makeSetup(
  c: FilterCostConfig,
  client: TurbopufferClient,
  cells: readonly QueryCell[],
): () => SetupData {
  return () => {
    const startedAtMs = Date.now();
    const namespace = c.namespace ?? `bench-filter-cost-${c.label}-${compactTimestamp(startedAtMs)}`;
    const seed = drawSeed(c.seed);
    console.log(formatFilterCostPlan(c, planFilterCost(c, cells)));
    console.log(
      `namespace ${namespace}, seed ${seed} (rerun with SEED=${seed} for the same vectors and values)`,
    );
    return fillFreshNamespace(client, namespace, c.cleanup, () => {
      // Leave a margin inside setupTimeout so a slow drain is reported by us, not killed by the runner.
      const deadline = startedAtMs + c.setupTimeoutS * 1000 - 10_000;
      const sampler = new BacklogSampler(client, namespace, pollMs(c));
      const ingested = ingest(c, client, namespace, seed, sampler);
      console.log(
        `ingested ${ingested.rows} rows in ${ingested.wall_s.toFixed(1)} s ` +
          `(${formatBytes(ingested.request_bytes)} of JSON); waiting for the index`,
      );
      const indexed = sampler.waitUntilIndexed(c.rows, deadline);
      if (!indexed)
        throw new Error(
          `the ${c.rows} rows were not indexed within SETUP_TIMEOUT_S=${c.setupTimeoutS}: raise it or lower ROWS`,
        );
      const drainS = (indexed.time - ingested.last_ack_ms) / 1000;
      console.log(`indexed ${drainS.toFixed(2)} s after the last write; probing recall`);
      return {
        namespace,
        seed,
        startedAtMs,
        created: true,
        ingest: ingested,
        drain: { seconds: drainS, poll_ms: sampler.pollMs, curve: sampler.curve(ingested.last_ack_ms) },
        storage: {
          approx_logical_bytes: indexed.body.approx_logical_bytes ?? null,
          approx_row_count: indexed.approxRowCount,
        },
        recall: probeRecall(c, client, namespace, seed, cells),
      };
    });
  };
}
