// handleSummary data -> experiment 1's rows, one per phase x consistency (the published table's rows), and the
// metadata snapshots taken at the cells' window edges. Pure: reads only the sub-metric keys of ../metric-keys.ts.

import { type Ms, type QueryFigures, readQueryCell } from '../../results/query-cell-figures';
import { metricValue, type SummaryData } from '../../results/summary-data';
import type { Consistency } from '../../turbopuffer-wire';
import { cellKeys, type Edge } from '../metric-keys';
import { CONSISTENCIES, PHASES, type PhaseName } from '../phases';

export interface Cell extends QueryFigures {
  phase: PhaseName;
  consistency: Consistency;
  /** Requests per second of the measured window (the writer's window, else QUERY_DURATION_S). */
  qps: number;
  /** performance.server_total_ms of the successful queries. */
  server_ms: { p50: Ms; p95: Ms };
  backlog_bytes: { start: number | null; end: number | null };
  /**
   * True when every error is the one this cell exists to show: strong queries above the backlog limit refused with
   * 429 (docs/turbopuffer-api.md §2.5).
   */
  errors_expected: boolean;
  /** The measured window (after warm-up), ISO 8601. */
  window: { start: string | null; end: string | null };
  /**
   * recall@TOP_K of the recall samples in this cell (ANN at its consistency against exact kNN over every
   * acknowledged row); mean null without a sample (strong kNN is refused above the limit).
   */
  recall_at_k: { mean: number | null; samples: number };
  /** Client p99 over the idle cell's at this consistency (vdb-streambench's jitter figure); null without either. */
  p99_jitter: number | null;
}

export interface MetadataSnapshot {
  time: string;
  unindexed_bytes: number;
  approx_row_count: number | null;
  /** What the snapshot marks, e.g. `setup` or `indexing_below_limit/strong/start`. */
  label: string;
}

export function buildCells(data: SummaryData, durationS: number): Cell[] {
  const cells: Cell[] = [];
  for (const phase of PHASES)
    for (const consistency of CONSISTENCIES) cells.push(buildCell(data, phase, consistency, durationS));
  for (const cell of cells) {
    const idle = cells.find((c) => c.phase === 'idle' && c.consistency === cell.consistency)?.client_ms.p99;
    const p99 = cell.client_ms.p99;
    cell.p99_jitter = idle && p99 !== null ? p99 / idle : null;
  }
  return cells;
}

function buildCell(data: SummaryData, phase: PhaseName, consistency: Consistency, durationS: number): Cell {
  const k = cellKeys(phase, consistency);
  const q = readQueryCell(data, k);
  const value = (key: string, stat: string) => metricValue(data, key, stat);
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
    requests: q.requests,
    errors: q.errors,
    error_rate: q.error_rate,
    errors_by_status: q.errors_by_status,
    qps: q.requests / windowS,
    client_ms: q.client_ms,
    server_ms: { p50: q.trend(k.server, 'med'), p95: q.trend(k.server, 'p(95)') },
    query_execution_ms: q.query_execution_ms,
    exhaustive_search_count: q.exhaustive_search_count,
    from_intended_ms: q.from_intended_ms,
    backlog_bytes: { start: gauge(k.unindexed('start'), 'start'), end: gauge(k.unindexed('end'), 'end') },
    errors_expected: errorsExpected(phase, consistency, q.errors, q.errors_by_status),
    window: { start: iso(k.windowStart), end: iso(k.windowEnd) },
    recall_at_k: {
      mean: (value(k.recall, 'count') ?? 0) > 0 ? value(k.recall, 'avg') : null,
      samples: value(k.recall, 'count') ?? 0,
    },
    p99_jitter: null,
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

/** Strong queries above the limit get 429 by design; any other status, or errors anywhere else, are real errors. */
export function errorsExpected(
  phase: PhaseName,
  consistency: Consistency,
  errors: number,
  byStatus: Record<string, number>,
): boolean {
  return (
    phase === 'indexing_above_limit' &&
    consistency === 'strong' &&
    errors > 0 &&
    Object.keys(byStatus).every((status) => status === '429')
  );
}
