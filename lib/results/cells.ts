// handleSummary data -> one row per phase x consistency (the published table's rows) and the metadata snapshots
// taken at the cells' window edges. Pure: reads only the sub-metric keys of lib/metric-names.ts.
import { cellKeys, type Edge, ERROR_CLASSES } from '../metric-names';
import { CONSISTENCIES, type Consistency, PHASES, type PhaseName } from '../phases';

/** The part of k6's handleSummary `data` this module reads (k6-compat.md §7.5). */
export interface SummaryData {
  metrics: Record<string, SummaryMetric>;
  setup_data?: unknown;
}

export interface SummaryMetric {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains?: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

/** Milliseconds; null where the cell had no sample. */
export type Ms = number | null;

export interface Cell {
  phase: PhaseName;
  consistency: Consistency;
  requests: number;
  errors: number;
  error_rate: number;
  /** Failed queries by status: "429", "4xx" (other client errors), "5xx", "0" (no response). Zero counts omitted. */
  errors_by_status: Record<string, number>;
  /** Requests per second of the measured window (the writer's window, else QUERY_DURATION_S). */
  qps: number;
  /** Client-side duration (k6 http_req_duration) of the successful queries. */
  client_ms: { p50: Ms; p95: Ms; p99: Ms };
  /** performance.server_total_ms of the successful queries. */
  server_ms: { p50: Ms; p95: Ms };
  query_execution_ms: { p50: Ms; p95: Ms };
  /** performance.exhaustive_search_count: unindexed rows scanned per query. */
  exhaustive_search_count: { p50: number | null; max: number | null };
  /** Latency from each query's intended start on the arrival schedule (all queries, failed ones included). */
  from_intended_ms: { p50: Ms; p99: Ms };
  backlog_bytes: { start: number | null; end: number | null };
  /** The measured window (after warm-up), ISO 8601. */
  window: { start: string | null; end: string | null };
}

export interface MetadataSnapshot {
  time: string;
  unindexed_bytes: number;
  approx_row_count: number | null;
  /** What the snapshot marks, e.g. `setup` or `indexing_below_limit/strong/start`. */
  label: string;
}

export interface FailedThreshold {
  metric: string;
  expression: string;
}

export function buildCells(data: SummaryData, durationS: number): Cell[] {
  const cells: Cell[] = [];
  for (const phase of PHASES)
    for (const consistency of CONSISTENCIES) cells.push(buildCell(data, phase, consistency, durationS));
  return cells;
}

function buildCell(data: SummaryData, phase: PhaseName, consistency: Consistency, durationS: number): Cell {
  const k = cellKeys(phase, consistency);
  const value = (key: string, stat: string): number | null => {
    const v = data.metrics[key]?.values[stat];
    return v === undefined || Number.isNaN(v) ? null : v;
  };
  const requests = value(k.requests, 'count') ?? 0;
  const errors = value(k.failed, 'passes') ?? 0;
  const ok = requests - errors > 0;
  const trend = (key: string, stat: string): Ms => (ok ? value(key, stat === 'p(50)' ? 'med' : stat) : null);
  const errorsByStatus: Record<string, number> = {};
  for (const cls of ERROR_CLASSES) {
    const n = value(k.errors(cls), 'count') ?? 0;
    if (n > 0) errorsByStatus[cls] = n;
  }
  // A gauge the writer never set reads 0 (or is absent): report it as missing, not as a zero backlog.
  const recorded = (e: Edge) => (value(k.time(e), 'value') ?? 0) > 0;
  const gauge = (key: string, e: Edge) => (recorded(e) ? value(key, 'value') : null);
  // The writer's measured window (narrower than QUERY_DURATION_S when its phase start was only known to a range).
  const windowMs = (value(k.windowEnd, 'value') ?? 0) - (value(k.windowStart, 'value') ?? 0);
  const windowS = windowMs > 0 && (value(k.windowStart, 'value') ?? 0) > 0 ? windowMs / 1000 : durationS;
  const iso = (key: string) => {
    const ms = value(key, 'value');
    return ms ? new Date(ms).toISOString() : null;
  };
  return {
    phase,
    consistency,
    requests,
    errors,
    error_rate: requests > 0 ? errors / requests : 0,
    errors_by_status: errorsByStatus,
    qps: requests / windowS,
    client_ms: {
      p50: trend(k.clientOk, 'p(50)'),
      p95: trend(k.clientOk, 'p(95)'),
      p99: trend(k.clientOk, 'p(99)'),
    },
    server_ms: { p50: trend(k.server, 'p(50)'), p95: trend(k.server, 'p(95)') },
    query_execution_ms: { p50: trend(k.execution, 'p(50)'), p95: trend(k.execution, 'p(95)') },
    exhaustive_search_count: { p50: trend(k.exhaustive, 'p(50)'), max: trend(k.exhaustive, 'max') },
    from_intended_ms: {
      p50: requests > 0 ? value(k.fromIntended, 'med') : null,
      p99: requests > 0 ? value(k.fromIntended, 'p(99)') : null,
    },
    backlog_bytes: { start: gauge(k.unindexed('start'), 'start'), end: gauge(k.unindexed('end'), 'end') },
    window: { start: iso(k.windowStart), end: iso(k.windowEnd) },
  };
}

/** The writer's snapshots at every cell's window edges, oldest first. */
export function buildSnapshots(data: SummaryData): MetadataSnapshot[] {
  const out: { ms: number; snapshot: MetadataSnapshot }[] = [];
  for (const phase of PHASES) {
    for (const consistency of CONSISTENCIES) {
      const k = cellKeys(phase, consistency);
      for (const edge of ['start', 'end'] as const) {
        const ms = data.metrics[k.time(edge)]?.values.value ?? 0;
        if (ms <= 0) continue;
        out.push({
          ms,
          snapshot: {
            time: new Date(ms).toISOString(),
            unindexed_bytes: data.metrics[k.unindexed(edge)]?.values.value ?? 0,
            approx_row_count: data.metrics[k.rows(edge)]?.values.value ?? null,
            label: `${phase}/${consistency}/${edge}`,
          },
        });
      }
    }
  }
  return out.sort((a, b) => a.ms - b.ms).map((x) => x.snapshot);
}

/** Every threshold expression that failed, in summary order. */
export function failedThresholds(data: SummaryData): FailedThreshold[] {
  const failed: FailedThreshold[] = [];
  for (const [metric, m] of Object.entries(data.metrics)) {
    for (const [expression, result] of Object.entries(m.thresholds ?? {})) {
      if (!result.ok) failed.push({ metric, expression });
    }
  }
  return failed;
}
