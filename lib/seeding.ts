// Filling a fresh namespace before an experiment measures anything: seeded rows written in batches (retrying 429s
// and 5xx as the write-retry rule says), then a wait until the index has caught up. setup() code: k6 APIs only.
import { sleep } from 'k6';
import { formatBytes } from '../core/sizes';
import { readingFrom } from './metadata-poll';
import { type TurbopufferClient, upsertBody } from './turbopuffer-client';
import { rowBytes } from './vectors';
import { isRetryable, MAX_WRITE_ATTEMPTS, retryDelayMs } from './write-retry';

export interface SeedPlan {
  /** Seed of every vector (lib/vectors.ts): the same seed writes the same rows. */
  seed: number;
  /** Rows 0 .. rows-1. */
  rows: number;
  dims: number;
  batchRows: number;
}

/** Writes the plan's rows (the schema with the first batch); throws naming the batch that failed for good. */
export function seedRows(client: TurbopufferClient, namespace: string, plan: SeedPlan): void {
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
export function waitUntilIndexed(
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
