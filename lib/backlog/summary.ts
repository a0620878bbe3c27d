// handleSummary of experiment 1: only pure renderers, returning path -> content (k6-compat.md §7.5):
// <RESULTS_DIR>/<namespace>-<timestamp>.md and .json, and the console table on stdout.
import type { BacklogConfig } from '../backlog-config';
import { compactTimestamp } from '../namespace-lifecycle';
import { buildResult } from '../results/json';
import { renderMarkdown } from '../results/markdown';
import { jsonFileText } from '../results/run-record';
import { failedThresholds, type SummaryData } from '../results/summary-data';
import { renderText } from '../results/text';
import type { Versions } from '../versions';
import type { SetupData } from './setup-data';

export function makeSummary(
  config: BacklogConfig,
  versions: Versions,
): (data: SummaryData) => Record<string, string> {
  return (data) => {
    const setup = data.setup_data as SetupData | undefined;
    if (!setup) {
      const failed = failedThresholds(data).length;
      return {
        stdout: `\n  backlog experiment: setup() did not complete, so no result files were written (${failed} thresholds failed).\n\n`,
      };
    }
    const finishedAtMs = Date.now();
    const result = buildResult(data, config, {
      namespace: setup.namespace,
      seed: setup.seed,
      startedAtMs: setup.startedAtMs,
      finishedAtMs,
      setupSnapshot: setup.setupSnapshot,
      versions,
    });
    const base = `${config.resultsDir}/${setup.namespace}-${compactTimestamp(finishedAtMs)}`;
    const files = [`${base}.md`, `${base}.json`];
    return {
      [files[0]]: renderMarkdown(result),
      [files[1]]: jsonFileText(result),
      stdout: renderText(result, files),
    };
  };
}
