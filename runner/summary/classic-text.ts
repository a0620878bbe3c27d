// The classic text summary layout that scripts get from jslib k6-summary's textSummary(data, options): the
// checks tree, then every metric sorted by name with a threshold mark. Written from k6's documented layout.
import type { SummaryData, SummaryGroup, SummaryMetric } from './data';
import { formatPercent, metricValues } from './format';

export interface ClassicOptions {
  indent?: string;
  enableColors?: boolean;
  summaryTimeUnit?: string;
  summaryTrendStats?: string[];
}

function paint(enabled: boolean, code: number, s: string): string {
  return enabled ? `\x1b[${code}m${s}\x1b[0m` : s;
}

function groupLines(g: SummaryGroup, indent: string, colors: boolean): string[] {
  const out: string[] = [];
  for (const c of g.checks) {
    if (c.fails === 0) out.push(`${indent}${paint(colors, 32, `✓ ${c.name}`)}`);
    else {
      out.push(`${indent}${paint(colors, 31, `✗ ${c.name}`)}`);
      const pct = Math.floor((100 * c.passes) / (c.passes + c.fails));
      out.push(`${indent} ${paint(colors, 31, ` ↳  ${pct}% — ✓ ${c.passes} / ✗ ${c.fails}`)}`);
    }
  }
  if (g.checks.length > 0) out.push('');
  for (const sub of g.groups) {
    out.push(`${indent}█ ${sub.name}`, '');
    out.push(...groupLines(sub, `${indent}  `, colors));
  }
  return out;
}

function values(m: SummaryMetric, stats: string[], timeUnit: string): string[] {
  // The classic layout counts a rate's passes and fails with marks; every other type reads as in the compact one.
  if (m.type === 'rate') return [formatPercent(m.values.rate), `✓ ${m.values.passes}`, `✗ ${m.values.fails}`];
  return metricValues(m, timeUnit, stats);
}

export function renderClassicSummary(data: SummaryData, options: ClassicOptions = {}): string {
  const indent = options.indent ?? ' ';
  const colors = options.enableColors ?? false;
  const timeUnit = options.summaryTimeUnit ?? data.options.summaryTimeUnit;
  const stats = options.summaryTrendStats ?? data.options.summaryTrendStats;
  const lines = groupLines(data.root_group, `${indent}    `, colors);
  const names = Object.keys(data.metrics).sort();
  const display = (n: string) => {
    const open = n.indexOf('{');
    return open < 0 ? n : `{ ${n.slice(open + 1, -1)} }`;
  };
  const width = Math.max(0, ...names.map((n) => display(n).length + (n.includes('{') ? 2 : 0))) + 3;
  const rows = names.map((n) => values(data.metrics[n], stats, timeUnit));
  // Trend columns align among trends; the other metrics share their own column widths.
  const widths = { trend: [] as number[], other: [] as number[] };
  const kind = (n: string) => (data.metrics[n].type === 'trend' ? 'trend' : 'other');
  rows.forEach((r, idx) => {
    const w = widths[kind(names[idx])];
    for (let i = 0; i < r.length; i++) w[i] = Math.max(w[i] ?? 0, r[i].length);
  });
  names.forEach((n, idx) => {
    const m = data.metrics[n];
    const sub = n.includes('{');
    let mark = ' ';
    if (m.thresholds) {
      const failed = Object.values(m.thresholds).some((t) => !t.ok);
      mark = failed ? paint(colors, 31, '✗') : paint(colors, 32, '✓');
    }
    const name = `${sub ? '  ' : ''}${display(n)}`;
    const dots = '.'.repeat(Math.max(1, width - name.length));
    const colWidths = widths[kind(n)];
    const vals = rows[idx].map((v, i) => (i < rows[idx].length - 1 ? v.padEnd(colWidths[i]) : v)).join(' ');
    lines.push(`${indent}  ${mark} ${name}${paint(colors, 2, dots)}: ${vals}`);
  });
  return lines.join('\n');
}
