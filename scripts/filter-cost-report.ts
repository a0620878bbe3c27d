// The report step of `make filter-cost`: reads a run directory (runs.json, the per-configuration result JSONs and
// their raw sample streams), pools each cell's client latencies over repeats for 95% intervals of p50 and p99, and
// writes <dir>/report.md and <dir>/report.json.
//
//   tsx scripts/filter-cost-report.ts results/filter-cost-<timestamp>
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { quantileInterval } from '../lib/filter-cost/quantile-ci';
import type { FilterCostResult } from '../lib/filter-cost/results/json';
import type { FilterCostManifest } from '../lib/filter-cost/results/manifest';
import { buildReport, type IntervalsByConfiguration } from '../lib/filter-cost/results/report';
import { renderReportMarkdown } from '../lib/filter-cost/results/report-markdown';
import { jsonFileText } from '../lib/results/run-record';
import { cellSampleKey, readCellLatencies } from './filter-cost-samples';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function writeReport(dir: string): Promise<{ markdown: string; json: string }> {
  const manifest = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8')) as FilterCostManifest;
  const results: FilterCostResult[] = [];
  const pooled = new Map<string, Map<string, number[]>>();
  for (const run of manifest.runs) {
    if (!run.result) continue;
    const result = JSON.parse(readFileSync(join(dir, run.result), 'utf8')) as FilterCostResult;
    results.push(result);
    const samplesPath = run.samples ? resolve(root, run.samples) : null;
    if (!samplesPath || !existsSync(samplesPath)) continue;
    const latencies = await readCellLatencies(samplesPath);
    const byCell = pooled.get(result.configuration) ?? new Map<string, number[]>();
    pooled.set(result.configuration, byCell);
    for (const cell of result.cells) {
      const values = latencies.get(cellSampleKey(cell.shape, cell.selectivity_pct)) ?? [];
      byCell.set(cell.id, [...(byCell.get(cell.id) ?? []), ...values]);
    }
  }
  const intervals: IntervalsByConfiguration = {};
  for (const [configuration, byCell] of pooled) {
    intervals[configuration] = {};
    for (const [id, values] of byCell) {
      const sorted = values.sort((a, b) => a - b);
      intervals[configuration][id] = {
        p50: quantileInterval(sorted, 0.5),
        p99: quantileInterval(sorted, 0.99),
      };
    }
  }
  const report = buildReport(manifest, results, intervals);
  const markdown = join(dir, 'report.md');
  const json = join(dir, 'report.json');
  writeFileSync(markdown, renderReportMarkdown(report));
  writeFileSync(json, jsonFileText(report));
  return { markdown, json };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2];
  if (!dir || !existsSync(join(dir, 'runs.json'))) {
    process.stderr.write('usage: tsx scripts/filter-cost-report.ts <run directory containing runs.json>\n');
    process.exit(2);
  }
  const out = await writeReport(dir);
  process.stdout.write(`${readFileSync(out.markdown, 'utf8')}\nwrote ${out.markdown} and ${out.json}\n`);
}
