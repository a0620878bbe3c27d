// Namespace metadata as both experiments read it (the backlog a body reports), and a per-VU cache that fetches at
// most once per tick of a wall-clock grid, so every VU works from a reading at most one tick old and all VUs read on
// the same grid (experiment 1's phase machine snaps to it). Pure: the fetch and the clock are passed in.
import type { NamespaceMetadata } from './turbopuffer-wire';

export interface MetadataReading {
  /** Epoch ms when the response arrived. */
  time: number;
  unindexedBytes: number;
  /** `index.unindexed_rows` (0 when up to date; null when an updating index does not report it). */
  unindexedRows: number | null;
  approxRowCount: number | null;
  /** `approx_logical_bytes`: on a namespace of fresh upserts, minus the backlog, how far indexing has reached. */
  approxLogicalBytes: number | null;
  indexStatus: 'up-to-date' | 'updating';
}

export type MetadataFetch = () => { status: number; body?: NamespaceMetadata };

/** The backlog a metadata body reports: `unindexed_bytes` while updating, 0 when up to date. */
export function readingFrom(body: NamespaceMetadata, time: number): MetadataReading {
  const updating = body.index?.status === 'updating';
  return {
    time,
    unindexedBytes: updating ? (body.index?.unindexed_bytes ?? 0) : 0,
    unindexedRows: updating ? (body.index?.unindexed_rows ?? null) : 0,
    approxRowCount: body.approx_row_count ?? null,
    approxLogicalBytes: body.approx_logical_bytes ?? null,
    indexStatus: updating ? 'updating' : 'up-to-date',
  };
}

export class MetadataPoller {
  private last: MetadataReading | undefined;
  private lastTick = -1;
  /** Failed fetches so far (the last good reading is kept meanwhile). */
  failures = 0;

  constructor(
    private readonly fetch: MetadataFetch,
    /** Grid tick: at most one fetch per tick. */
    private readonly tickMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The newest reading, fetching first unless one was already attempted in the current tick. */
  current(): { reading: MetadataReading | undefined; fresh: boolean } {
    const tick = Math.floor(this.clock() / this.tickMs);
    if (tick === this.lastTick) return { reading: this.last, fresh: false };
    this.lastTick = tick;
    const res = this.fetch();
    if (res.status !== 200 || !res.body) {
      this.failures++;
      return { reading: this.last, fresh: false };
    }
    this.last = readingFrom(res.body, this.clock());
    return { reading: this.last, fresh: true };
  }
}
