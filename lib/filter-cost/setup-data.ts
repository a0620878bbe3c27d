// What setup() measured and hands every VU, teardown() and handleSummary() (JSON, copied into each VU: every poll is
// kept as a 3-number array). Field names are the result JSON's (snake_case), so the result passes them through.
import type { EmulatorInfo } from '../emulator-info';
import type { Consistency } from '../turbopuffer-wire';
import type { Poll } from './drain';

export interface IngestStats {
  rows: number;
  /** Acknowledged write requests. */
  requests: number;
  /** JSON bytes of the acknowledged write requests. */
  request_bytes: number;
  /** Sum of `billing.billable_logical_bytes_written` over the acknowledged writes. */
  billable_bytes_written: number;
  /** Seconds from the first write's body generation to the last acknowledgement (429 waits included). */
  wall_s: number;
  /** Write attempts answered 429 and sent again after the server's retry-after (or a backoff). */
  retries_429: number;
  /** Write attempts that failed otherwise (5xx, no response) and were sent again; a final failure stops setup. */
  write_errors: number;
  /** Per-request latency (k6 timings.duration) of the acknowledged writes. */
  write_ms: { p50: number | null; p95: number | null; p99: number | null; max: number | null };
  /** ms since the first write: when the last write was acknowledged (the drain's start on the polls' clock). */
  last_ack_ms: number;
}

export interface DrainStats {
  peak_unindexed_bytes: number | null;
  duration_s: number | null;
  poll_interval_s: number;
  /** Every metadata poll while ingesting and draining. */
  polls: Poll[];
  /** Seconds from the study's start (started_at) to t = 0 of `polls` (this configuration's first write). */
  polls_origin_s: number;
}

export interface StorageStats {
  /** From metadata once indexed. */
  approx_logical_bytes: number | null;
  approx_row_count: number | null;
  /** The billing fields of the write responses, summed. */
  billing: { billable_logical_bytes_written: number };
}

export interface RecallStats {
  /** Probes answered by both the ANN and the exact query. */
  queries: number;
  /** Mean and minimum recall@10 over those probes; null without probes. */
  mean: number | null;
  min: number | null;
  failed: number;
}

export interface ConfigurationData {
  name: string;
  namespace: string;
  ingest: IngestStats;
  drain: DrainStats;
  storage: StorageStats;
  /** Rows each filter matched (aggregate Count), by selectivity tag; null when the count failed. */
  matches: Record<string, number | null>;
  /** recall@10 by cell id and consistency (ANN cells only). */
  recall: Record<string, Record<Consistency, RecallStats>>;
}

export interface SetupData {
  /** Namespace prefix of the run; also the result files' name. */
  prefix: string;
  seed: number;
  startedAtMs: number;
  /** When setup() returned (epoch ms): the query windows' offsets count from here. */
  setupEndedAtMs: number;
  /** What the emulator said about itself (lib/emulator-info.ts); null for the real service. */
  emulator: EmulatorInfo | null;
  /** Namespaces this run created (only those may CLEANUP delete), in creation order. */
  created: string[];
  configurations: ConfigurationData[];
}
