// What a bench emulator says about itself at GET /_emulator/settings (loopback only, not part of turbopuffer's API):
// its version and every setting that shapes what the experiments measure. Each experiment records it in its
// result's `target`, so a run against the emulator can be rerun with the same emulator. The wire type is shared by
// the emulator (emulator/routes/debug.ts) and the scripts.

export const EMULATOR_SETTINGS_PATH = '/_emulator/settings';

export interface EmulatorInfo {
  /** `bench` version of the emulator and the commit its bundle was built from (`unknown` outside a build). */
  version: string;
  commit: string;
  /** True when the bundle was built from a tree with uncommitted changes; null when unknown. */
  dirty: boolean | null;
  /** The `bench emulator` flags, resolved (bytes, bytes per second, ms). */
  settings: {
    backlog_limit_bytes: number;
    eventual_tail_limit_bytes: number;
    /** null: unlimited (as fast as the vector engine goes). */
    index_bytes_per_second: number | null;
    /** --index-burst: bytes at the start of each namespace indexed without the pace (absent in older results). */
    index_burst_bytes?: number;
    max_body_bytes: number;
    max_inflight_bytes: number;
    query_slots: number;
    query_wait_ms: number;
    /** Write-ahead logs on disk (--data-dir) rather than in memory. */
    durable: boolean;
    /** --api-key was given (the key itself is never shown). */
    api_key_required: boolean;
    /** The latency model (emulator/README.md "Latency model"), its waits in ms; `none`: no waits. */
    latency_model: EmulatorLatencySettings;
  };
  /** The same settings as `bench emulator` flags, to start an equal emulator. */
  flags: string[];
}

export type EmulatorLatencySettings =
  | { model: 'none' }
  | {
      model: 'service';
      strong_read_ms: number;
      commit_interval_ms: number;
      object_put_ms: number;
      object_get_ms: number;
      cold_round_trips: number;
    };
