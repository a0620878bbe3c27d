// Experiment 1's cells as `bench compare` reads them: client percentiles, counts and success QPS per phase and
// consistency, with the per-bucket percentiles of the cell's window where the result keeps a time series; and the
// published table as cells. Pure.
import { type ComparableCell, publishedCell } from '../experiment';
import type { BacklogReportInput } from './charts';
import { PUBLISHED_BACKLOG } from './published';

export function backlogCells(r: BacklogReportInput): ComparableCell[] {
  const s = r.series;
  return r.cells.map((c): ComparableCell => {
    const key = `${c.phase}/${c.consistency}`;
    const windowS = c.qps > 0 ? c.requests / c.qps : null;
    const cell: ComparableCell = {
      key,
      client: { p50: c.client_ms.p50, p95: c.client_ms.p95, p99: c.client_ms.p99 },
      requests: c.requests,
      errors: c.errors,
      errorRate: c.requests > 0 ? c.errors / c.requests : null,
      successQps: windowS ? (c.requests - c.errors) / windowS : null,
      windowS,
    };
    const w = s?.windows.find((x) => x.kind === 'cell' && x.label === key);
    const q = s?.queries[c.consistency];
    if (s && w && q) {
      const inside = q.t_s.flatMap((t, i) => (t >= w.start_s && t + s.interval_s <= w.end_s ? [i] : []));
      const values = (col: (number | null)[]) =>
        inside.map((i) => col[i]).filter((v): v is number => v !== null);
      cell.buckets = {
        p50: values(q.client_ms.p50),
        p95: values(q.client_ms.p95),
        p99: values(q.client_ms.p99),
      };
    }
    return cell;
  });
}

export function publishedBacklogCells(): ComparableCell[] {
  return PUBLISHED_BACKLOG.map((row) =>
    publishedCell(`${row.phase}/${row.consistency}`, row.clientMs, row.errorRate),
  );
}
