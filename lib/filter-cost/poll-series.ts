// One namespace's metadata polls while setup() ingests and drains it: at most one per poll interval (the shared
// poller's grid), every one kept as a compact Poll on a clock that starts with the ingest, and the wait for the
// index after the last write. Runs inside setup() (one VU, k6 sleep).
import { sleep } from 'k6';
import { formatBytes } from '../../core/sizes';
import { MetadataPoller, type MetadataReading } from '../metadata-poll';
import { StatusLines } from '../status-lines';
import type { TurbopufferClient } from '../turbopuffer-client';
import type { Poll } from './drain';
import { ingestProgressLine } from './progress';

export class PollSeries {
  /** Epoch ms the series' clock counts from (the start of the ingest). */
  readonly origin = Date.now();
  readonly polls: Poll[] = [];
  private readonly poller: MetadataPoller;

  constructor(
    client: TurbopufferClient,
    namespace: string,
    private readonly rows: number,
    readonly intervalMs: number,
    tags: Record<string, string>,
    /** The configuration's name in progress lines. */
    private readonly label: string,
  ) {
    this.poller = new MetadataPoller(
      () => client.metadata(namespace, { phase: 'ingest', ...tags }),
      intervalMs,
    );
  }

  /** Progress lines while this namespace is ingested and drained. */
  private readonly status = new StatusLines();

  /**
   * Polls unless this interval already had a poll; returns the reading when one was taken. `acknowledged`: rows
   * written so far while ingesting (none while draining), for the progress line.
   */
  maybePoll(acknowledged?: number): MetadataReading | undefined {
    const { reading, fresh } = this.poller.current();
    if (!fresh || !reading) return undefined;
    this.status.offer(reading.time, acknowledged === undefined ? 'drain' : 'ingest', () =>
      ingestProgressLine({
        configuration: this.label,
        acknowledged,
        rows: this.rows,
        unindexedBytes: reading.unindexedBytes,
        approxRowCount: reading.approxRowCount,
      }),
    );
    this.polls.push([
      reading.time - this.origin,
      reading.unindexedBytes,
      this.indexed(reading) ? 1 : 0,
      reading.approxRowCount,
      reading.unindexedRows,
    ]);
    return reading;
  }

  /** Every row counted and index.status up-to-date. */
  private indexed(r: MetadataReading): boolean {
    return r.indexStatus === 'up-to-date' && (r.approxRowCount ?? 0) >= this.rows;
  }

  /** Polls until a reading says indexed, or throws (naming the last state) once `deadlineMs` passes. */
  waitUntilIndexed(deadlineMs: number, what: string): void {
    let last: MetadataReading | undefined;
    while (Date.now() < deadlineMs) {
      last = this.maybePoll() ?? last;
      if (last && this.indexed(last)) return;
      sleep(this.intervalMs / 1000 / 4);
    }
    const state = last
      ? `${formatBytes(last.unindexedBytes)} unindexed, ${last.approxRowCount} rows`
      : 'no reading';
    throw new Error(
      `${what} was not indexed in time (last poll: ${state}): raise DRAIN_TIMEOUT_S or lower ROWS`,
    );
  }
}
