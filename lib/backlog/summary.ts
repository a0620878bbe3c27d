// handleSummary of experiment 1: its result builder and renderers behind the shared path -> content map
// (lib/results/handle-summary.ts).

import { makeHandleSummary } from '../results/handle-summary';
import type { SummaryData } from '../results/summary-data';
import type { Versions } from '../versions';
import type { BacklogConfig } from './config';
import { type BacklogResult, buildResult } from './results/json';
import { renderMarkdown } from './results/markdown';
import { renderText } from './results/text';
import type { SetupData } from './setup-data';

export function makeSummary(
  config: BacklogConfig,
  versions: Versions,
): (data: SummaryData) => Record<string, string> {
  return makeHandleSummary<SetupData, BacklogResult>({
    title: 'backlog experiment',
    resultsDir: config.resultsDir,
    fileName: (setup) => setup.namespace,
    build: (data, setup, finishedAtMs) =>
      buildResult(data, config, {
        namespace: setup.namespace,
        seed: setup.seed,
        startedAtMs: setup.startedAtMs,
        finishedAtMs,
        t0: setup.t0,
        setupSnapshot: setup.setupSnapshot,
        emulator: setup.emulator,
        versions,
      }),
    markdown: renderMarkdown,
    text: renderText,
  });
}
