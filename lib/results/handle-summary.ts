// handleSummary for either experiment: the result as <RESULTS_DIR>/<name>-<timestamp>.md and .json plus the
// console text on stdout (docs/k6-behaviour.md §7.5: path -> content), or only a console line when setup() did not complete.
// Calls nothing but the experiment's pure builder and renderers; the clock gives the finish time.
import { compactTimestamp } from '../namespace-lifecycle';
import { jsonFileText } from './run-record';
import type { SummaryData } from './summary-data';

export interface ResultOutput<Setup, Result> {
  /** How the console names the run: `backlog experiment`, `filter-cost int-100`. */
  title: string;
  resultsDir: string;
  /** The result files' name before the finish time: the namespace, or the study's namespace prefix. */
  fileName: (setup: Setup) => string;
  build: (data: SummaryData, setup: Setup, finishedAtMs: number) => Result;
  markdown: (result: Result) => string;
  text: (result: Result, files: string[]) => string;
}

/**
 * What the result JSON file holds: the result, then setup()'s data, so that `bench merge --setup-data` can write
 * this report from the merged streams of a split run's runners (runner/README.md, k6-operator).
 */
export function resultFile<Result extends object>(
  result: Result,
  setup: unknown,
): Result & { setup_data: unknown } {
  return { ...result, setup_data: setup };
}

export function makeHandleSummary<Setup, Result extends object>(
  o: ResultOutput<Setup, Result>,
): (data: SummaryData) => Record<string, string> {
  return (data) => {
    // k6 hands setup()'s return value back here as JSON; it is absent when setup() threw.
    const setup = data.setup_data as Setup | undefined;
    // Nothing was measured (setup threw, or the run was interrupted before it returned): its thresholds fail for
    // want of samples, which says nothing about the target, so they are not counted here.
    if (!setup) {
      return {
        stdout: `\n  ${o.title}: setup() did not complete (it failed, or the run was interrupted first), so nothing was measured and no result files were written.\n\n`,
      };
    }
    const finishedAtMs = Date.now();
    const result = o.build(data, setup, finishedAtMs);
    const base = `${o.resultsDir}/${o.fileName(setup)}-${compactTimestamp(finishedAtMs)}`;
    const files = [`${base}.md`, `${base}.json`];
    return {
      [files[0]]: o.markdown(result),
      [files[1]]: jsonFileText(resultFile(result, setup)),
      stdout: o.text(result, files),
    };
  };
}
