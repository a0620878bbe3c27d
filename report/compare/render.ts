// A comparison -> Markdown (for a PR or a note) and console text: one row per cell, each figure as A → B with its
// change, interval and mark. Pure.
import { markdownTable, textTable } from '../../lib/results/table';
import type { Change, Comparison, Figure } from './compare';
import type { Trip } from './gates';

export interface Sides {
  /** What each side is (file names, run counts, the published table). */
  a: string;
  b: string;
  /** Knobs recorded differently in A and B (`DIMS 32 → 768`); empty when they ran one configuration. */
  configDiffers?: readonly string[];
}

function configLines(sides: Sides): string[] {
  const d = sides.configDiffers ?? [];
  if (d.length === 0) return [];
  return [`Knobs differ, so a cell of A and B may not measure the same workload: ${d.join(', ')}.`];
}

const HEADER = ['Cell', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)', 'Errors', 'Success QPS'];
const COLUMNS: Figure[] = ['p50', 'p95', 'p99', 'errors', 'qps'];

function num(x: number, unit: Figure): string {
  if (unit === 'errors') return `${x.toFixed(1)}%`;
  const a = Math.abs(x);
  return a >= 100 ? x.toFixed(0) : a >= 10 ? x.toFixed(1) : x.toFixed(2);
}

const signed = (x: number, digits = 1) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(digits)}`;

/** `*` significant at 95 %, `≈` judged and not significant, `?` nothing to judge it with. */
function mark(c: Change): string {
  return c.significant === true ? '*' : c.significant === false ? '≈' : '?';
}

export function changeText(c: Change, f: Figure): string {
  if (c.a === null && c.b === null) return '—';
  if (c.a === null || c.b === null || c.delta === null)
    return `${c.a === null ? '—' : num(c.a, f)} → ${c.b === null ? '—' : num(c.b, f)}`;
  // Errors change in percentage points; the rest relative to A (absolute when A is 0).
  const relative = f !== 'errors' && c.pct !== null;
  const base = c.a;
  const scale = (x: number) => (relative && base ? (x / base) * 100 : x);
  const unit = relative ? '%' : f === 'errors' ? ' pt' : '';
  const interval =
    c.low !== null || c.high !== null
      ? ` [${c.low === null ? '−∞' : signed(scale(c.low))}, ${c.high === null ? '+∞' : signed(scale(c.high))}]`
      : c.p !== null
        ? ` p=${c.p < 0.001 ? '<0.001' : c.p.toFixed(3)}`
        : '';
  return `${num(c.a, f)} → ${num(c.b, f)} (${signed(scale(c.delta))}${unit}${interval}) ${mark(c)}`;
}

function rows(cmp: Comparison): string[][] {
  return cmp.cells.map((cell) => [cell.key, ...COLUMNS.map((f) => changeText(cell.changes[f], f))]);
}

function methodLine(cmp: Comparison): string {
  if (cmp.mode === 'repeats')
    return (
      `Each side is the mean over its repeats (${cmp.runs.a} and ${cmp.runs.b}); intervals and marks: Welch's ` +
      't-test, 95 %.'
    );
  return (
    "Percentile intervals combine both runs' 95 % intervals (experiment 2); without them a Mann–Whitney test of " +
    "the cell's per-bucket percentiles gives p (experiment 1's time series); errors: two-proportion test; success " +
    'QPS: Poisson rate test.'
  );
}

function tripLines(trips: readonly Trip[], gates: number): string[] {
  if (gates === 0) return [];
  if (trips.length === 0) return ['Gates: none crossed.'];
  return [
    `Gates crossed (${trips.length}):`,
    ...trips.map(
      (t) => `- ${t.gate.text}: ${t.key} changed ${signed(t.change)}${t.gate.relative ? '%' : ''}`,
    ),
  ];
}

function footer(cmp: Comparison, trips: readonly Trip[], gates: number): string[] {
  const out = [
    methodLine(cmp),
    'Marks: * significant at 95 %, ≈ not significant, ? nothing in the data to judge it.',
  ];
  if (cmp.onlyA.length > 0) out.push(`Only in A: ${cmp.onlyA.join(', ')}.`);
  if (cmp.onlyB.length > 0) out.push(`Only in B: ${cmp.onlyB.join(', ')}.`);
  return [...out, ...tripLines(trips, gates)];
}

export function compareMarkdown(
  cmp: Comparison,
  sides: Sides,
  trips: readonly Trip[],
  gates: number,
): string {
  return `${[
    '# bench compare',
    '',
    `- A: ${sides.a}`,
    `- B: ${sides.b}`,
    '',
    ...configLines(sides).flatMap((l) => [l, '']),
    ...markdownTable(HEADER, rows(cmp)),
    '',
    ...footer(cmp, trips, gates).flatMap((l) => [l, '']),
  ]
    .join('\n')
    .replace(/\n+$/, '')}\n`;
}

export function compareText(cmp: Comparison, sides: Sides, trips: readonly Trip[], gates: number): string {
  return `${['', `  A: ${sides.a}`, `  B: ${sides.b}`, ...configLines(sides).map((l) => `  ${l}`), '', ...textTable(HEADER, rows(cmp)), '', ...footer(cmp, trips, gates).map((l) => `  ${l}`), ''].join('\n')}\n`;
}
