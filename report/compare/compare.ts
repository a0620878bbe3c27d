// Two sides (one run each, or directories of repeats) -> per cell, the change of every figure with the interval or
// significance the data both sides keep allow:
//   - repeats on both sides (two or more each): the mean over the repeats, Welch's t-test (interval and p);
//   - one run each: percentiles with 95 % intervals (experiment 2) combine them; percentiles with per-bucket values
//     (experiment 1's time series) get a Mann–Whitney test of the buckets; error shares a two-proportion test;
//     success QPS a Poisson rate test; anything else gets the change alone.
// Pure.
import { type ComparableCell, PERCENTILES, type Percentile } from './comparable';
import {
  type Difference,
  fromIntervals,
  mannWhitneyP,
  nonNegative,
  proportions,
  rates,
  significant,
  welch,
} from './stats';

const FIGURES = [...PERCENTILES, 'errors', 'qps'] as const;
export type Figure = (typeof FIGURES)[number];

/** The change of one figure in one cell. */
export interface Change {
  a: number | null;
  b: number | null;
  /** b − a in the figure's unit (ms, percentage points of errors, queries/s). */
  delta: number | null;
  /** delta / a in %, null where a is 0 or unknown. */
  pct: number | null;
  /** The interval of delta (same unit), or null sides. */
  low: number | null;
  high: number | null;
  p: number | null;
  /** true/false: judged; null: the data cannot tell. */
  significant: boolean | null;
  /** Which test judged it. */
  method: 'welch' | 'intervals' | 'buckets' | 'proportions' | 'rates' | 'none';
}

export interface CellComparison {
  key: string;
  changes: Record<Figure, Change>;
}

export interface Comparison {
  /** Cells both sides have, in B's order. */
  cells: CellComparison[];
  /** Cells only one side has. */
  onlyA: string[];
  onlyB: string[];
  /** Runs per side. */
  runs: { a: number; b: number };
  /** How the changes were judged (repeats or single runs). */
  mode: 'repeats' | 'single';
}

function figureValue(c: ComparableCell, f: Figure): number | null {
  if (f === 'errors') return c.errorRate === null ? null : c.errorRate * 100;
  if (f === 'qps') return c.successQps;
  return c.client[f];
}

function change(
  a: number | null,
  b: number | null,
  raw: Difference | null,
  method: Change['method'],
): Change {
  const delta = a !== null && b !== null ? b - a : null;
  const d = raw && a !== null ? nonNegative(raw, a) : raw;
  return {
    a,
    b,
    delta,
    pct: delta !== null && a ? (delta / a) * 100 : null,
    low: d?.low ?? null,
    high: d?.high ?? null,
    p: d?.p ?? null,
    significant: d ? significant(d) : null,
    method: d ? method : 'none',
  };
}

function singleChange(a: ComparableCell, b: ComparableCell, f: Figure): Change {
  const va = figureValue(a, f);
  const vb = figureValue(b, f);
  if (va === null || vb === null) return change(va, vb, null, 'none');
  if (f === 'errors') {
    if (a.requests === null || b.requests === null || a.errors === null || b.errors === null)
      return change(va, vb, null, 'none');
    const d = proportions(a.errors, a.requests, b.errors, b.requests);
    return change(va, vb, d && { ...d, low: scale(d.low), high: scale(d.high) }, 'proportions');
  }
  if (f === 'qps') {
    if (a.windowS === null || b.windowS === null) return change(va, vb, null, 'none');
    return change(va, vb, rates(va * a.windowS, a.windowS, vb * b.windowS, b.windowS), 'rates');
  }
  const pf = f as Percentile;
  if (a.ci && b.ci) return change(va, vb, fromIntervals(va, a.ci[pf], vb, b.ci[pf]), 'intervals');
  if (a.buckets && b.buckets) {
    const p = mannWhitneyP(a.buckets[pf], b.buckets[pf]);
    return change(va, vb, p === null ? null : { estimate: vb - va, low: null, high: null, p }, 'buckets');
  }
  return change(va, vb, null, 'none');
}

/** Shares to percentage points. */
const scale = (x: number | null) => (x === null ? null : x * 100);

function repeatChange(as: readonly ComparableCell[], bs: readonly ComparableCell[], f: Figure): Change {
  const values = (cs: readonly ComparableCell[]) =>
    cs.map((c) => figureValue(c, f)).filter((v): v is number => v !== null);
  const va = values(as);
  const vb = values(bs);
  const m = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length);
  return change(m(va), m(vb), welch(va, vb), 'welch');
}

/** Each side: one list of cells per run. */
export function compareRuns(a: readonly ComparableCell[][], b: readonly ComparableCell[][]): Comparison {
  const index = (runs: readonly ComparableCell[][]) => {
    const byKey = new Map<string, ComparableCell[]>();
    for (const run of runs) for (const c of run) byKey.set(c.key, [...(byKey.get(c.key) ?? []), c]);
    return byKey;
  };
  const ia = index(a);
  const ib = index(b);
  const repeats = a.length >= 2 && b.length >= 2;
  const cells: CellComparison[] = [];
  for (const [key, bs] of ib) {
    const as = ia.get(key);
    if (!as) continue;
    const changes = {} as Record<Figure, Change>;
    for (const f of FIGURES) changes[f] = repeats ? repeatChange(as, bs, f) : singleChange(as[0], bs[0], f);
    cells.push({ key, changes });
  }
  return {
    cells,
    onlyA: [...ia.keys()].filter((k) => !ib.has(k)),
    onlyB: [...ib.keys()].filter((k) => !ia.has(k)),
    runs: { a: a.length, b: b.length },
    mode: repeats ? 'repeats' : 'single',
  };
}
