// Merging --summary-export files of instances that ran elsewhere (pure). An export holds per-instance aggregates, not
// samples, so only what aggregates can give is exact: counter counts, rate passes and fails, check counts, trend
// min and max (and avg when the export lists `count`). Medians and percentiles cannot be merged from aggregates:
// they are left out and named; thresholds keep k6's per-instance verdict (failed when any instance failed them).
// For exact merged percentiles and thresholds, merge the instances' --out json streams instead.

type Values = Record<string, unknown>;

interface ExportGroup {
  name: string;
  path: string;
  id: string;
  groups: Record<string, ExportGroup>;
  checks: Record<string, { name: string; path: string; id: string; passes: number; fails: number }>;
}

export interface SummaryExport {
  root_group: ExportGroup;
  metrics: Record<string, Values>;
}

export interface MergedExport {
  export: SummaryExport;
  /** Metric stats that could not be merged exactly (left out, or averaged without counts). */
  notes: string[];
}

/** Concurrent instances' gauges that add up (the others keep the largest value). */
const ADDING_GAUGES = new Set(['vus', 'vus_max']);

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

export function isSummaryExport(value: unknown): value is SummaryExport {
  return typeof value === 'object' && value !== null && 'metrics' in value && 'root_group' in value;
}

function kindOf(v: Values): 'counter' | 'rate' | 'gauge' | 'trend' {
  if ('passes' in v && 'fails' in v) return 'rate';
  if ('avg' in v || 'med' in v) return 'trend';
  if ('count' in v && 'rate' in v) return 'counter';
  return 'gauge';
}

function mergeThresholds(all: Values[]): Record<string, boolean> | undefined {
  const out: Record<string, boolean> = {};
  let any = false;
  for (const v of all) {
    const t = v.thresholds as Record<string, boolean> | undefined;
    if (!t) continue;
    any = true;
    for (const [src, failed] of Object.entries(t)) out[src] = (out[src] ?? false) || failed;
  }
  return any ? out : undefined;
}

function mergeMetric(name: string, all: Values[], notes: string[]): Values {
  const kind = kindOf(all[0]);
  const out: Values = {};
  switch (kind) {
    case 'counter':
      out.count = all.reduce((s, v) => s + num(v.count), 0);
      // Instances run at the same time, so their rates add up.
      out.rate = all.reduce((s, v) => s + num(v.rate), 0);
      break;
    case 'rate': {
      const passes = all.reduce((s, v) => s + num(v.passes), 0);
      const fails = all.reduce((s, v) => s + num(v.fails), 0);
      Object.assign(out, { passes, fails, value: passes + fails > 0 ? passes / (passes + fails) : 0 });
      break;
    }
    case 'gauge': {
      const adds = ADDING_GAUGES.has(name);
      out.value = adds
        ? all.reduce((s, v) => s + num(v.value), 0)
        : Math.max(...all.map((v) => num(v.value)));
      out.min = Math.min(...all.map((v) => num(v.min)));
      out.max = adds ? all.reduce((s, v) => s + num(v.max), 0) : Math.max(...all.map((v) => num(v.max)));
      if (adds) notes.push(`${name}: value and max are the sums of the instances' (max an upper bound)`);
      break;
    }
    case 'trend': {
      out.min = Math.min(...all.map((v) => num(v.min)));
      out.max = Math.max(...all.map((v) => num(v.max)));
      if (all.every((v) => typeof v.count === 'number')) {
        const count = all.reduce((s, v) => s + num(v.count), 0);
        out.count = count;
        out.avg = count > 0 ? all.reduce((s, v) => s + num(v.avg) * num(v.count), 0) / count : 0;
      } else {
        out.avg = all.reduce((s, v) => s + num(v.avg), 0) / all.length;
        notes.push(`${name}: avg is the mean of the instances' averages (the exports have no count)`);
      }
      const dropped = Object.keys(all[0]).filter((k) => k === 'med' || /^p\(/.test(k));
      if (dropped.length > 0)
        notes.push(`${name}: ${dropped.join(', ')} left out (not mergeable from aggregates)`);
      break;
    }
  }
  const thresholds = mergeThresholds(all);
  if (thresholds) out.thresholds = thresholds;
  return out;
}

function mergeGroups(groups: ExportGroup[]): ExportGroup {
  const first = groups[0];
  const checks: ExportGroup['checks'] = {};
  const children = new Map<string, ExportGroup[]>();
  for (const g of groups) {
    for (const [name, c] of Object.entries(g.checks ?? {})) {
      const into = checks[name];
      checks[name] = into
        ? { ...into, passes: into.passes + c.passes, fails: into.fails + c.fails }
        : { ...c };
    }
    for (const [name, child] of Object.entries(g.groups ?? {}))
      children.set(name, [...(children.get(name) ?? []), child]);
  }
  return {
    name: first.name,
    path: first.path,
    id: first.id,
    groups: Object.fromEntries([...children].map(([name, gs]) => [name, mergeGroups(gs)])),
    checks,
  };
}

export function mergeSummaryExports(exports: SummaryExport[]): MergedExport {
  const notes: string[] = [];
  const names: string[] = [];
  for (const e of exports)
    for (const name of Object.keys(e.metrics)) if (!names.includes(name)) names.push(name);
  const metrics: Record<string, Values> = {};
  for (const name of names.sort())
    metrics[name] = mergeMetric(
      name,
      exports.map((e) => e.metrics[name]).filter((v): v is Values => v !== undefined),
      notes,
    );
  return { export: { root_group: mergeGroups(exports.map((e) => e.root_group)), metrics }, notes };
}
