// handleSummary of experiment 2: its result builder and renderers behind the shared path -> content map
// (lib/results/handle-summary.ts).

import { makeHandleSummary } from '../results/handle-summary';
import type { SummaryData } from '../results/summary-data';
import type { Versions } from '../versions';
import type { CellPlan } from './cells';
import type { FilterCostConfig } from './config';
import { buildFilterCostResult, type FilterCostResult } from './results/json';
import { renderFilterCostMarkdown } from './results/markdown';
import { renderFilterCostText } from './results/text';
import type { SetupData } from './setup-data';

export function makeSummary(
  c: FilterCostConfig,
  plan: CellPlan,
  versions: Versions,
): (data: SummaryData) => Record<string, string> {
  return makeHandleSummary<SetupData, FilterCostResult>({
    title: `filter-cost ${c.label}`,
    resultsDir: c.resultsDir,
    build: (data, setup, finishedAtMs) =>
      buildFilterCostResult(data, c, plan, { setup, finishedAtMs, versions }),
    markdown: renderFilterCostMarkdown,
    text: renderFilterCostText,
  });
}
