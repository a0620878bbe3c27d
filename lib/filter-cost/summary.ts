// handleSummary of experiment 2: only pure renderers, returning path -> content:
// <RESULTS_DIR>/<namespace>-<timestamp>.md and .json, and the console table on stdout.
import type { FilterCostConfig } from '../filter-cost-config';
import { compactTimestamp } from '../namespace-lifecycle';
import { buildFilterCostResult } from '../results/filter-cost-json';
import { renderFilterCostMarkdown } from '../results/filter-cost-markdown';
import { renderFilterCostText } from '../results/filter-cost-text';
import { jsonFileText } from '../results/run-record';
import { failedThresholds, type SummaryData } from '../results/summary-data';
import type { Versions } from '../versions';
import type { CellPlan } from './cells';
import type { SetupData } from './setup-data';

export function makeSummary(
  c: FilterCostConfig,
  plan: CellPlan,
  versions: Versions,
): (data: SummaryData) => Record<string, string> {
  return (data) => {
    const setup = data.setup_data as SetupData | undefined;
    if (!setup) {
      const failed = failedThresholds(data).length;
      return {
        stdout: `\n  filter-cost ${c.label}: setup() did not complete, so no result files were written (${failed} thresholds failed).\n\n`,
      };
    }
    const finishedAtMs = Date.now();
    const result = buildFilterCostResult(data, c, plan, { setup, finishedAtMs, versions });
    const base = `${c.resultsDir}/${setup.namespace}-${compactTimestamp(finishedAtMs)}`;
    const files = [`${base}.md`, `${base}.json`];
    return {
      [files[0]]: renderFilterCostMarkdown(result),
      [files[1]]: jsonFileText(result),
      stdout: renderFilterCostText(result, files),
    };
  };
}
