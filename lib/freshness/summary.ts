// handleSummary of experiment 3: its result builder and renderers behind the shared path -> content map.
import { makeHandleSummary } from '../results/handle-summary';
import type { SummaryData } from '../results/summary-data';
import type { Versions } from '../versions';
import type { FreshnessConfig } from './config';
import { buildFreshnessResult, type FreshnessResult } from './results/json';
import { renderFreshnessMarkdown, renderFreshnessText } from './results/render';
import type { SetupData } from './setup-data';
import { LAG_TOLERANCE_MS } from './thresholds';

export function makeSummary(
  config: FreshnessConfig,
  versions: Versions,
): (data: SummaryData) => Record<string, string> {
  return makeHandleSummary<SetupData, FreshnessResult>({
    title: 'freshness experiment',
    resultsDir: config.resultsDir,
    fileName: (setup) => setup.namespace,
    build: (data, setup, finishedAtMs) =>
      buildFreshnessResult(data, config, { ...setup, finishedAtMs, versions }, LAG_TOLERANCE_MS),
    markdown: renderFreshnessMarkdown,
    text: renderFreshnessText,
  });
}
