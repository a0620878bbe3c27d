// Metadata readings while setup() ingests and drains: at most one per poll interval, kept as the unindexed-bytes
// curve, and the wait for index.status up-to-date after the last write. Runs inside setup() (one VU, k6 sleep).
import { sleep } from 'k6';
import { type MetadataReading, readingFrom } from '../metadata-poll';
import { formatBytes } from '../sizes';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { NamespaceMetadata } from '../turbopuffer-wire';
import { MAX_CURVE_POINTS, thin } from './curve';
import type { BacklogPoint } from './setup-data';

/** A reading as every experiment interprets metadata (lib/metadata-poll.ts), with the body for storage figures. */
type Reading = MetadataReading & { body: NamespaceMetadata };

export class BacklogSampler {
  private readonly readings: Reading[] = [];
  private lastPollMs = 0;

  constructor(
    private readonly client: TurbopufferClient,
    private readonly namespace: string,
    readonly pollMs: number,
  ) {}

  /** Reads metadata unless the last reading is younger than the poll interval. */
  maybeSample(): void {
    if (Date.now() - this.lastPollMs >= this.pollMs) this.sample();
  }

  sample(): Reading | undefined {
    this.lastPollMs = Date.now();
    const res = this.client.metadata(this.namespace, { phase: 'setup' });
    if (res.status !== 200 || !res.body) return undefined;
    const reading = { ...readingFrom(res.body, Date.now()), body: res.body };
    this.readings.push(reading);
    return reading;
  }

  /** Polls until index.status is up-to-date and approx_row_count has reached `rows`, or the deadline passes. */
  waitUntilIndexed(rows: number, deadlineMs: number): Reading | undefined {
    let last: Reading | undefined;
    while (Date.now() < deadlineMs) {
      last = this.sample() ?? last;
      if (last?.indexStatus === 'up-to-date' && (last.approxRowCount ?? 0) >= rows) return last;
      sleep(this.pollMs / 1000);
    }
    const state = last
      ? `${formatBytes(last.unindexedBytes)} unindexed, ${last.approxRowCount} rows`
      : 'no reading';
    console.warn(`the namespace was not indexed before the setup deadline (last: ${state})`);
    return undefined;
  }

  /** Every reading relative to `originMs` (the last acknowledged write), thinned to MAX_CURVE_POINTS. */
  curve(originMs: number): BacklogPoint[] {
    const points = this.readings.map((r) => ({
      t_s: Math.round(r.time - originMs) / 1000,
      unindexed_bytes: r.unindexedBytes,
      approx_row_count: r.approxRowCount,
    }));
    return thin(points, MAX_CURVE_POINTS);
  }
}
