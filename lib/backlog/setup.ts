// setup() of experiment 1: create a fresh namespace, write SEED_ROWS seeded vectors, wait until they are indexed,
// and hand the schedule's t0 to every VU (teardown: lib/namespace-lifecycle.ts).
import { sleep } from 'k6';
import { formatBytes } from '../../core/sizes';
import { drawSeed } from '../common-knobs';
import { readingFrom } from '../metadata-poll';
import { compactTimestamp, fillFreshNamespace } from '../namespace-lifecycle';
import { type TurbopufferClient, upsertBody } from '../turbopuffer-client';
import { rowBytes } from '../vectors';
import { isRetryable, MAX_WRITE_ATTEMPTS, retryDelayMs } from '../write-retry';
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
      seedRows(config, client, namespace, seed);
      const snapshot = waitUntilIndexed(config, client, namespace, startedAtMs);
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

function seedRows(config: BacklogConfig, client: TurbopufferClient, namespace: string, seed: number): void {
  const total = config.seedRows;
  console.log(
    `seeding ${total} rows (${formatBytes(total * rowBytes(config.dims))}) in batches of ${config.seedBatchRows}`,
  );
  for (let first = 0; first < total; first += config.seedBatchRows) {
    const count = Math.min(config.seedBatchRows, total - first);
    const body = upsertBody(seed, first, count, config.dims, {
      schema: first === 0,
      disableBackpressure: false,
    });
    for (let attempt = 1; ; attempt++) {
      const res = client.write(namespace, body, { phase: 'setup' });
      if (res.status === 200) break;
      if (!isRetryable(res.status) || attempt >= MAX_WRITE_ATTEMPTS)
        throw new Error(
          `seeding rows ${first}..${first + count - 1} failed: HTTP ${res.status}: ${res.error}`,
        );
      sleep(retryDelayMs(res, attempt) / 1000);
    }
  }
}

function waitUntilIndexed(
  config: BacklogConfig,
  client: TurbopufferClient,
  namespace: string,
  startedAtMs: number,
): SetupData['setupSnapshot'] {
  // Leave a margin inside setupTimeout so the failure is ours (with a message), not the runner's timeout.
  const deadline = startedAtMs + config.setupTimeoutS * 1000 - 5000;
  let last = '';
  while (Date.now() < deadline) {
    const res = client.metadata(namespace);
    if (res.status === 200 && res.body) {
      const reading = readingFrom(res.body, Date.now());
      if (reading.indexStatus === 'up-to-date')
        return { timeMs: reading.time, unindexedBytes: 0, approxRowCount: reading.approxRowCount };
      last = `${formatBytes(reading.unindexedBytes)} unindexed`;
    } else last = `metadata HTTP ${res.status}`;
    sleep(1);
  }
  throw new Error(
    `the seed rows were not indexed within SETUP_TIMEOUT_S=${config.setupTimeoutS} (last: ${last})`,
  );
}
