// The end-of-test text summary in k6 v2's compact layout (THRESHOLDS, TOTAL RESULTS by category), from the
// handleSummary data (pure: data in, string out).
import { BUILTIN_NAMES } from '../metrics/builtin';
import type { SummaryData, SummaryGroup, SummaryMetric } from './data';
import { formatNumber, formatPercent, formatValue, metricValues } from './format';

const HIDDEN_IN_COMPACT = new Set([
  'http_req_blocked',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
  'group_duration',
]);
const EXECUTION = new Set(['vus', 'vus_max', 'iterations', 'iteration_duration', 'dropped_iterations']);
const BUILTIN_PREFIXES = ['http_', 'data_', 'bench_'];

function category(name: string): string {
  if (name.startsWith('http_')) return 'HTTP';
  if (BUILTIN_NAMES.has(name) && name.startsWith('ws_')) return 'WEBSOCKET';
  if (BUILTIN_NAMES.has(name) && name.startsWith('grpc_')) return 'GRPC';
  if (BUILTIN_NAMES.has(name) && name.startsWith('browser_web_vital_')) return 'WEB_VITALS';
  if (BUILTIN_NAMES.has(name) && name.startsWith('browser_')) return 'BROWSER';
  if (EXECUTION.has(name) || name.startsWith('bench_')) return 'EXECUTION';
  if (name === 'data_sent' || name === 'data_received') return 'NETWORK';
  if (BUILTIN_PREFIXES.some((p) => name.startsWith(p)) || name === 'checks' || name === 'group_duration')
    return '';
  return 'CUSTOM';
}

export interface TextOptions {
  /** full mode: `GROUP: name` and `SCENARIO: name` sections after the totals. */
  sections?: Array<{ title: string; metrics: Record<string, SummaryMetric>; checks: SummaryGroup['checks'] }>;
  /** Threshold key -> expression source -> the value it was last evaluated on (aggregations beyond trend stats). */
  thresholdValues?: Record<string, Record<string, number>>;
  indent?: string;
  enableColors?: boolean;
  mode?: 'compact' | 'full';
}

interface Paint {
  green(s: string): string;
  red(s: string): string;
  faint(s: string): string;
}

function painter(enabled: boolean): Paint {
  const wrap = (code: number) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { green: wrap(32), red: wrap(31), faint: wrap(2) };
}

function splitName(key: string): { parent: string; suffix?: string } {
  const open = key.indexOf('{');
  return open < 0 ? { parent: key } : { parent: key.slice(0, open), suffix: key.slice(open + 1, -1) };
}

function checkLines(checks: SummaryGroup['checks'], pad: string, p: Paint): string[] {
  const out: string[] = [];
  for (const c of checks) {
    if (c.fails === 0) out.push(`${pad}${p.green('✓')} ${c.name}`);
    else {
      out.push(`${pad}${p.red('✗')} ${c.name}`);
      const pct = Math.floor((c.passes / (c.passes + c.fails)) * 100);
      out.push(`${pad}  ${p.faint(`↳  ${pct}% — ✓ ${c.passes} / ✗ ${c.fails}`)}`);
    }
  }
  return out;
}

function allChecks(g: SummaryGroup): SummaryGroup['checks'] {
  return [...g.checks, ...g.groups.flatMap(allChecks)];
}

interface BlockContext {
  pad: string;
  p: Paint;
  timeUnit: string;
  stats: readonly string[];
  compact: boolean;
  seconds: number;
}

/** Checks summary, check marks and metric lines by category, for the whole run or one group/scenario. */
function resultBlock(
  metrics: Record<string, SummaryMetric>,
  checks: SummaryGroup['checks'],
  ctx: BlockContext,
): string[] {
  const { pad, p, timeUnit, stats, compact } = ctx;
  const entries = Object.entries(metrics);
  const lines: string[] = [];
  const rows: Array<{ section: string; name: string; values: string[]; trend?: boolean }> = [];
  if (checks.length > 0) {
    const passes = checks.reduce((s, c) => s + c.passes, 0);
    const fails = checks.reduce((s, c) => s + c.fails, 0);
    const total = passes + fails;
    rows.push({
      section: 'CHECKS',
      name: 'checks_total',
      values: [String(total), `${formatNumber(ctx.seconds > 0 ? total / ctx.seconds : 0)}/s`],
    });
    rows.push({
      section: 'CHECKS',
      name: 'checks_succeeded',
      values: [formatPercent(total ? passes / total : 0), `${passes} out of ${total}`],
    });
    rows.push({
      section: 'CHECKS',
      name: 'checks_failed',
      values: [formatPercent(total ? fails / total : 0), `${fails} out of ${total}`],
    });
  }
  const sorted = entries
    .filter(([key]) => {
      const { parent } = splitName(key);
      return parent !== 'checks' && !(compact && HIDDEN_IN_COMPACT.has(parent)) && category(parent) !== '';
    })
    .sort(([a], [b]) => {
      const pa = splitName(a).parent;
      const pb = splitName(b).parent;
      return pa === pb ? (a === pa ? -1 : b === pb ? 1 : a.localeCompare(b)) : pa.localeCompare(pb);
    });
  for (const [key, m] of sorted) {
    const { parent, suffix } = splitName(key);
    rows.push({
      section: category(parent),
      name: suffix === undefined ? key : `  { ${suffix} }`,
      values: metricValues(m, timeUnit, stats),
      trend: m.type === 'trend',
    });
  }
  const nameWidth = Math.max(35, ...rows.map((r) => r.name.length + 3));
  // Trend columns align among trends; counters, rates and gauges share their own (narrower) columns.
  const widths = { trend: [] as number[], other: [] as number[] };
  for (const r of rows) {
    const w = r.trend ? widths.trend : widths.other;
    for (let i = 0; i < r.values.length; i++) w[i] = Math.max(w[i] ?? 0, r.values[i].length);
  }
  const render = (r: (typeof rows)[number]) => {
    const w = r.trend ? widths.trend : widths.other;
    const values = r.values.map((v, i) => (i < r.values.length - 1 ? v.padEnd(w[i]) : v)).join(' ');
    return `${pad}  ${r.name}${p.faint('.'.repeat(Math.max(1, nameWidth - r.name.length)))}: ${values}`.trimEnd();
  };
  const order = [
    'CHECKS',
    'CUSTOM',
    'HTTP',
    'EXECUTION',
    'NETWORK',
    'BROWSER',
    'WEB_VITALS',
    'GRPC',
    'WEBSOCKET',
  ];
  for (const section of order) {
    const inSection = rows.filter((r) => r.section === section);
    if (inSection.length === 0) continue;
    if (section !== 'CHECKS') lines.push(`${pad}  ${section}`);
    for (const r of inSection) lines.push(render(r));
    lines.push('');
    if (section === 'CHECKS') {
      lines.push(...checkLines(checks, `${pad}  `, p), '');
    }
  }
  return lines;
}

export function renderTextSummary(data: SummaryData, options: TextOptions = {}): string {
  const p = painter(options.enableColors ?? false);
  const base = options.indent ?? ' ';
  const pad = `${base} `;
  const timeUnit = data.options.summaryTimeUnit;
  const stats = data.options.summaryTrendStats;
  const compact = (options.mode ?? 'compact') === 'compact';
  const entries = Object.entries(data.metrics);
  const lines: string[] = [];

  const withThresholds = entries.filter(([, m]) => m.thresholds);
  if (withThresholds.length > 0) {
    lines.push(`${pad}█ THRESHOLDS`, '');
    for (const [key, m] of withThresholds.sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`${pad}  ${key}`);
      for (const [source, { ok }] of Object.entries(m.thresholds ?? {})) {
        const agg = source.split(/<=|<|>=|>|===|==|!=/)[0].trim();
        const value = options.thresholdValues?.[key]?.[source] ?? m.values[agg];
        const shown =
          value === undefined
            ? ''
            : ` ${agg}=${m.type === 'rate' ? formatPercent(value) : formatValue(value, m.contains, timeUnit)}`;
        lines.push(`${pad}  ${ok ? p.green('✓') : p.red('✗')} '${source}'${shown}`);
      }
      lines.push('');
    }
    lines.push('');
  }

  lines.push(`${pad}█ TOTAL RESULTS`, '');
  const ctx: BlockContext = {
    pad,
    p,
    timeUnit,
    stats,
    compact,
    seconds: data.state.testRunDurationMs / 1000,
  };
  lines.push(...resultBlock(data.metrics, allChecks(data.root_group), ctx));
  if (!compact) {
    for (const section of options.sections ?? []) {
      lines.push('', `${pad}█ ${section.title}`, '');
      lines.push(...resultBlock(section.metrics, section.checks, ctx));
    }
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}
