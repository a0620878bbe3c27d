// `--fail-on 'p95>+10%'` gates: a figure, a comparison and a limit on its change, relative (with %) or absolute (in
// the figure's unit: ms for percentiles, percentage points for errors, queries/s for qps). A gate trips in every
// cell whose change crosses it; with `significant`, only where the change is also judged significant. Pure.
import type { CellComparison, Figure } from './compare';

export interface Gate {
  text: string;
  figure: Figure;
  operator: '>' | '>=' | '<' | '<=';
  value: number;
  relative: boolean;
}

const FIGURE_NAMES: Record<string, Figure> = {
  p50: 'p50',
  p95: 'p95',
  p99: 'p99',
  errors: 'errors',
  error_rate: 'errors',
  qps: 'qps',
};

const GATE = /^\s*([a-z_0-9]+)\s*(>=|<=|>|<)\s*([+-]?\d+(?:\.\d+)?)\s*(%?)\s*$/;

/** Parses one gate; throws naming the problem and the form expected. */
export function parseGate(text: string): Gate {
  const m = GATE.exec(text);
  if (!m)
    throw new Error(
      `--fail-on '${text}': expected FIGURE OP CHANGE, e.g. 'p95>+10%' (relative) or 'p99>5' (ms), ` +
        "'errors>1' (percentage points), 'qps<-5%'",
    );
  const figure = FIGURE_NAMES[m[1]];
  if (!figure) throw new Error(`--fail-on '${text}': unknown figure '${m[1]}' (p50, p95, p99, errors, qps)`);
  return {
    text: text.trim(),
    figure,
    operator: m[2] as Gate['operator'],
    value: Number(m[3]),
    relative: m[4] === '%',
  };
}

export interface Trip {
  gate: Gate;
  key: string;
  /** The change that crossed it (in % when the gate is relative). */
  change: number;
}

function crosses(x: number, g: Gate): boolean {
  switch (g.operator) {
    case '>':
      return x > g.value;
    case '>=':
      return x >= g.value;
    case '<':
      return x < g.value;
    case '<=':
      return x <= g.value;
  }
}

export function evaluateGates(
  gates: readonly Gate[],
  cells: readonly CellComparison[],
  significantOnly: boolean,
): Trip[] {
  const trips: Trip[] = [];
  for (const gate of gates)
    for (const cell of cells) {
      const c = cell.changes[gate.figure];
      const x = gate.relative ? c.pct : c.delta;
      if (x === null || !crosses(x, gate)) continue;
      if (significantOnly && c.significant !== true) continue;
      trips.push({ gate, key: cell.key, change: x });
    }
  return trips;
}
