// handleSummary of the top-k experiment: its result builder and renderers behind the shared path -> content map.
import { makeHandleSummary } from '../results/handle-summary';
import type { SummaryData } from '../results/summary-data';
import type { Versions } from '../versions';
import type { TopKConfig } from './config';
import { buildTopKResult, type TopKResult } from './results/json';
import { renderTopKMarkdown, renderTopKText } from './results/render';
import type { SetupData } from './setup-data';

export function makeSummary(
  config: TopKConfig,
  versions: Versions,
): (data: SummaryData) => Record<string, string> {
  return makeHandleSummary<SetupData, TopKResult>({
    title: 'top-k experiment',
    resultsDir: config.resultsDir,
    fileName: (setup) => setup.namespace,
    build: (data, setup, finishedAtMs) => buildTopKResult(data, config, { ...setup, finishedAtMs, versions }),
    markdown: renderTopKMarkdown,
    text: renderTopKText,
  });
}
