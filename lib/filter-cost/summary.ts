// handleSummary of experiment 2: its result builder and renderers behind the shared path -> content map
// (lib/results/handle-summary.ts). One pair of files for the whole study: <prefix>-<finish time>.md and .json.
import { makeHandleSummary } from '../results/handle-summary';
import type { SummaryData } from '../results/summary-data';
import type { Versions } from '../versions';
import type { StudyPlan } from './cells';
import type { FilterCostConfig } from './config';
import { buildFilterCostResult, type FilterCostResult } from './results/json';
import { renderFilterCostMarkdown } from './results/markdown';
import { renderFilterCostText } from './results/text';
import type { SetupData } from './setup-data';

export function makeSummary(
  c: FilterCostConfig,
  plan: StudyPlan,
  versions: Versions,
): (data: SummaryData) => Record<string, string> {
  return makeHandleSummary<SetupData, FilterCostResult>({
    title: 'filter-cost study',
    resultsDir: c.resultsDir,
    fileName: (setup) => setup.prefix,
    build: (data, setup, finishedAtMs) =>
      buildFilterCostResult(data, c, plan, { setup, finishedAtMs, versions }),
    markdown: renderFilterCostMarkdown,
    text: renderFilterCostText,
  });
}
