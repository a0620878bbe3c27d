// Filling a fresh namespace before an experiment measures anything: seeded rows written in batches (retrying 429s
// and 5xx as the write-retry rule says), then a wait until the index has caught up. setup() code: k6 APIs only.
import { sleep } from 'k6';
import { formatBytes } from '../core/sizes';
import { drawSeed, type Target } from './common-knobs';
import type { EmulatorInfo } from './emulator-info';
import { readingFrom } from './metadata-poll';
import { compactTimestamp, fillFreshNamespace } from './namespace-lifecycle';
import { type TurbopufferClient, upsertBody } from './turbopuffer-client';
import { rowBytes } from './vectors';
import { isRetryable, MAX_WRITE_ATTEMPTS, retryDelayMs } from './write-retry';

interface SeedPlan {
  /** Seed of every vector (lib/vectors.ts): the same seed writes the same rows. */
  seed: number;
  /** Rows 0 .. rows-1. */
  rows: number;
  dims: number;
  batchRows: number;
}

/** Writes the plan's rows (the schema with the first batch); throws naming the batch that failed for good. */
function seedRows(client: TurbopufferClient, namespace: string, plan: SeedPlan): void {
  const total = plan.rows;
  console.log(
    `seeding ${total} rows (${formatBytes(total * rowBytes(plan.dims))}) in batches of ${plan.batchRows}`,
  );
  for (let first = 0; first < total; first += plan.batchRows) {
    const count = Math.min(plan.batchRows, total - first);
    const body = upsertBody(plan.seed, first, count, plan.dims, {
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

/** The metadata once the index caught up: what results record as the setup snapshot. */
export interface IndexedSnapshot {
  timeMs: number;
  unindexedBytes: number;
  approxRowCount: number | null;
}

/**
 * Polls metadata once a second until `index.status` is `up-to-date`; throws before `deadlineMs` (epoch ms) with the
 * last reading, naming `timeoutKnob`, so the failure is the script's, with a message, not the runner's timeout.
 */
function waitUntilIndexed(
  client: TurbopufferClient,
  namespace: string,
  deadlineMs: number,
  timeoutKnob: string,
): IndexedSnapshot {
  let last = '';
  while (Date.now() < deadlineMs) {
    const res = client.metadata(namespace);
    if (res.status === 200 && res.body) {
      const reading = readingFrom(res.body, Date.now());
      if (reading.indexStatus === 'up-to-date')
        return { timeMs: reading.time, unindexedBytes: 0, approxRowCount: reading.approxRowCount };
      last = `${formatBytes(reading.unindexedBytes)} unindexed`;
    } else last = `metadata HTTP ${res.status}`;
    sleep(1);
  }
  throw new Error(`the seed rows were not indexed within ${timeoutKnob} (last: ${last})`);
}

/** What setup() needs to fill a fresh namespace with seeded rows (each experiment's config has these fields). */
export interface SeededNamespacePlan {
  target: Target;
  /** NAMESPACE, or undefined for `<prefix>-<timestamp>`. */
  namespace: string | undefined;
  seed: number | undefined;
  rows: number;
  dims: number;
  seedBatchRows: number;
  setupTimeoutS: number;
  cleanup: boolean;
}

/** What every seeded experiment's setup data starts with. */
export interface SeededNamespace {
  namespace: string;
  seed: number;
  startedAtMs: number;
  /** The namespaces teardown() deletes with CLEANUP=1 (lib/namespace-lifecycle.ts). */
  created: string[];
  /** What the emulator said about itself; null for the real service. */
  emulator: EmulatorInfo | null;
  indexed: IndexedSnapshot;
}

/**
 * setup()'s common part: names the namespace, draws the seed, prints the cost plan and the seed, then creates the
 * namespace (refusing an existing one), writes the rows and waits until they are indexed; a failure part-way
 * deletes what it created (with CLEANUP=1), since teardown() does not run after a failed setup().
 */
export function seedFreshNamespace(
  p: SeededNamespacePlan,
  client: TurbopufferClient,
  prefix: string,
  planText: string,
): SeededNamespace {
  const startedAtMs = Date.now();
  const namespace = p.namespace ?? `${prefix}-${compactTimestamp(startedAtMs)}`;
  const seed = drawSeed(p.seed);
  console.log(planText);
  console.log(`namespace ${namespace}, seed ${seed} (rerun with SEED=${seed} for the same vectors)`);
  return fillFreshNamespace(client, namespace, p.cleanup, () => {
    seedRows(client, namespace, { seed, rows: p.rows, dims: p.dims, batchRows: p.seedBatchRows });
    // A margin inside setupTimeout, so the failure is ours (with a message), not the runner's timeout.
    const deadline = startedAtMs + p.setupTimeoutS * 1000 - 5000;
    const indexed = waitUntilIndexed(client, namespace, deadline, `SETUP_TIMEOUT_S=${p.setupTimeoutS}`);
    return {
      namespace,
      seed,
      startedAtMs,
      created: [namespace],
      emulator: p.target.kind === 'emulator' ? client.emulatorInfo() : null,
      indexed,
    };
  });
}
