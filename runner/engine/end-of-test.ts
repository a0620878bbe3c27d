// The end of a run: handleSummary(data) in its own realm (or the default text summary when it is not exported,
// returns nothing or throws), plus --summary-export. Called after outputs are closed, unless summary mode is disabled.
// A target that cannot be written is logged as k6 logs it and loses nothing else; the exit code stays as it was.
import type { Aggregator } from '../metrics/aggregator';
import { breakdownSections } from '../summary/breakdown';
import { buildSummaryData } from '../summary/data';
import { renderSummaryExport } from '../summary/export';
import { renderTextSummary } from '../summary/text';
import { type SummaryResult, writeSummaryResults } from '../summary/write-results';
import type { RealmData } from '../vu/wire';
import type { Logger } from './logger';
import type { RunPlan } from './prepare';
import type { RealmEvents } from './realm-handle';
import { runTransientRealm } from './transient-realm';

export interface EndOfTestInput {
  plan: RunPlan;
  aggregator: Aggregator;
  template: Omit<RealmData, 'mode' | 'vuId' | 'signal' | 'httpPort'>;
  events: RealmEvents;
  testRunDurationMs: number;
  /** setup() result as JSON, undefined when it returned nothing. */
  setupData: string | undefined;
  summaryMode: 'compact' | 'full';
  summaryExport: string | undefined;
  noColor: boolean;
  stdout: NodeJS.WriteStream;
  logger: Logger;
}

export async function writeEndOfTestSummary(input: EndOfTestInput): Promise<void> {
  const { plan, aggregator, template, events, testRunDurationMs, setupData, logger } = input;
  const data = buildSummaryData({
    registry: plan.registry,
    aggregator,
    thresholds: plan.thresholds,
    trendStats: plan.trendStats,
    timeUnit: plan.timeUnit,
    noColor: input.noColor,
    isStdOutTTY: Boolean(input.stdout.isTTY),
    isStdErrTTY: Boolean(process.stderr.isTTY),
    testRunDurationMs,
    setupData: setupData === undefined ? undefined : JSON.parse(setupData),
  });
  const results: SummaryResult[] = [];
  let printed = false;
  if (plan.init.exports.handleSummary === 'function') {
    const reply = await runTransientRealm(
      'summary',
      { ...template, argument: JSON.stringify(data) },
      { ...events, onAbort: () => {} },
      plan.handleSummaryTimeout,
    );
    if (reply.type === 'result' && reply.ok) {
      if (reply.outputs) {
        for (const [target, content] of Object.entries(reply.outputs))
          results.push([target, typeof content === 'string' ? content : Buffer.from(content)]);
        printed = true;
      }
    } else if (reply.type === 'timeout') {
      logger.error(`handleSummary() execution timed out after ${plan.handleSummaryTimeout / 1000} seconds`);
      printed = true;
    } else {
      const message =
        reply.type === 'result' && !reply.ok
          ? reply.message
          : reply.type === 'initError'
            ? reply.message
            : 'handleSummary failed';
      logger.error(`failed to handle the end-of-test summary: ${message}`);
    }
  }
  if (!printed) {
    const thresholdValues = Object.fromEntries(
      plan.thresholds.map((t) => [
        t.key,
        Object.fromEntries(t.expressions.map((e) => [e.source, e.lastValue])),
      ]),
    );
    const text = renderTextSummary(data, {
      sections:
        input.summaryMode === 'full' ? breakdownSections(aggregator, plan.trendStats, testRunDurationMs) : [],
      thresholdValues,
      enableColors: Boolean(input.stdout.isTTY) && !input.noColor,
      mode: input.summaryMode,
    });
    results.push(['stdout', `\n${text}\n\n`]);
  }
  if (input.summaryExport) results.push([input.summaryExport, renderSummaryExport(data)]);
  const failure = writeSummaryResults(results, { stdout: input.stdout, stderr: process.stderr });
  if (failure) logger.error('failed to handle the end-of-test summary', { error: failure });
}
