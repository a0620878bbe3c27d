// What setup() measured and hands every VU, teardown() and handleSummary() (JSON, copied into each VU: the backlog
// curve is downsampled to keep it small). Field names are the result JSON's (snake_case), so the summary passes
// them through unchanged.

export interface IngestStats {
  rows: number;
  requests: number;
  /** JSON bytes of the write requests sent (retries not counted). */
  request_bytes: number;
  /** Sum of `billing.billable_logical_bytes_written` over the acknowledged writes. */
  billable_bytes_written: number;
  /** Seconds with write requests in flight (body generation excluded): the throughput denominator. */
  busy_s: number;
  /** Seconds from the first send to the last acknowledgement, body generation included. */
  wall_s: number;
  /** Per-request latency (k6 timings.duration) of the acknowledged writes. */
  write_ms: { p50: number | null; p95: number | null; p99: number | null; max: number | null };
  /** Write attempts that failed with a retryable status and were sent again. */
  retries: number;
  first_send_ms: number;
  last_ack_ms: number;
}

/** One metadata reading. `t_s` is seconds relative to the last acknowledged write (negative while ingesting). */
export interface BacklogPoint {
  t_s: number;
  unindexed_bytes: number;
  approx_row_count: number | null;
}

export interface DrainStats {
  /** Seconds from the last acknowledged write to the first reading that said up-to-date (null: timed out). */
  seconds: number | null;
  /** Metadata poll interval: the resolution of `seconds`. */
  poll_ms: number;
  /** unindexed_bytes over time (downsampled to at most MAX_CURVE_POINTS). */
  curve: BacklogPoint[];
}

export interface StorageStats {
  approx_logical_bytes: number | null;
  approx_row_count: number | null;
}

export interface RecallStats {
  /** Probes answered by both the ANN and the exact query. */
  queries: number;
  /** Mean and minimum recall@TOP_K over those probes; null without probes. */
  mean: number | null;
  min: number | null;
  failed: number;
}

export interface SetupData {
  namespace: string;
  seed: number;
  startedAtMs: number;
  /** True when this run created the namespace (only then may CLEANUP delete it). */
  created: boolean;
  ingest: IngestStats;
  drain: DrainStats;
  storage: StorageStats;
  /** By cell id (vector-ranked cells only). */
  recall: Record<string, RecallStats>;
}
