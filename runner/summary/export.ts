// --summary-export: the old (pre-handleSummary) JSON format derived from the summary data. Rate metrics rename
// `rate` to `value`; thresholds are inlined with true meaning *failed*; groups and checks are keyed by name.
import type { SummaryData, SummaryGroup } from './data';

interface ExportGroup {
  name: string;
  path: string;
  id: string;
  groups: Record<string, ExportGroup>;
  checks: Record<string, SummaryGroup['checks'][number]>;
}

function exportGroup(g: SummaryGroup): ExportGroup {
  return {
    name: g.name,
    path: g.path,
    id: g.id,
    groups: Object.fromEntries(g.groups.map((c) => [c.name, exportGroup(c)])),
    checks: Object.fromEntries(g.checks.map((c) => [c.name, c])),
  };
}

export function renderSummaryExport(data: SummaryData): string {
  const metrics: Record<string, Record<string, unknown>> = {};
  for (const [name, m] of Object.entries(data.metrics)) {
    const values: Record<string, unknown> = { ...m.values };
    if (m.type === 'rate') {
      values.value = values.rate;
      delete values.rate;
    }
    if (m.thresholds) {
      values.thresholds = Object.fromEntries(Object.entries(m.thresholds).map(([src, { ok }]) => [src, !ok]));
    }
    metrics[name] = values;
  }
  const out = { root_group: exportGroup(data.root_group), metrics };
  return `${JSON.stringify(out, null, 4)}\n`;
}
