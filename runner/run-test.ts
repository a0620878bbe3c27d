// Programmatic entry of `bench run`: script + flags -> exit code. The CLI is a thin shell over it.
//   prepare (load, init #0, options) -> outputs, header -> lifecycle (engine/lifecycle.ts: VUs -> setup ->
//   scenarios -> teardown) -> final thresholds, outputs closed -> summary (handleSummary or text) -> exit code

import {
  EXIT_EXTERNAL_ABORT,
  EXIT_MARKED_AS_FAILED,
  EXIT_OK,
  EXIT_THRESHOLDS_FAILED,
} from '../core/exit-codes';
import { IN_COMPLETED } from './control-block';
import { writeEndOfTestSummary } from './engine/end-of-test';
import { type RemoteScenarios, runLifecycle, type SetupSource } from './engine/lifecycle';
import type { Logger } from './engine/logger';
import { type PrepareInput, prepareRun, type RunPlan, type VuPlacement } from './engine/prepare';
import { RunStatus } from './engine/run-status';
import { planHeader } from './executors/execution-plan';
import { describeScenario } from './executors/index';
import { tuneHeapForLoad } from './heap-tuning';
import { Aggregator, type SampleOutput } from './metrics/aggregator';
import { createOutput, outputTargets, splitSpec, WEB_DASHBOARD } from './outputs/index';
import type { Output } from './outputs/output';
import { type DashboardConfig, dashboardConfig } from './outputs/web-dashboard/config';
import { WebDashboard } from './outputs/web-dashboard/index';
import { checkOutputTargets, type OutputTarget } from './outputs/writable';
import { type EvaluationResult, evaluateThresholds } from './thresholds/threshold-set';
import { BENCH_VERSION, TARGET_K6_VERSION } from './version';

/** `bench run`'s inputs: what preparing the run needs, plus the outputs, summary and console settings. */
export interface RunInput extends PrepareInput {
  out: string[];
  summaryExport?: string;
  summaryMode: 'compact' | 'full' | 'disabled';
  quiet: boolean;
  noColor: boolean;
  stdout: NodeJS.WriteStream;
  /** Installs SIGINT/SIGTERM handlers (first graceful, second immediate exit 105). */
  handleSignals: boolean;
  /** Set when this run is one instance of a test that another process coordinates (`bench run --instances`). */
  handedSetup?: SetupSource;
  /** Set when other processes run the scenarios and their samples arrive here (runner/instances/). */
  remote?: RemoteScenarios;
}

// Our own header line, not k6's logo: bench is not Grafana k6. The lines after it keep k6's layout, so people and
// scripts that read k6's header find the same fields.
const BANNER = `\n  bench v${BENCH_VERSION} (k6-compatible runner, targets k6 ${TARGET_K6_VERSION})\n`;

/** SIGINT/SIGTERM handling for the whole run: the first is graceful, the second exits at once with 105. */
class Signals {
  count = 0;
  /** Set once the run can abort gracefully; until then a first signal is remembered. */
  onFirst: (() => void) | undefined;
  private readonly handler = () => {
    this.count++;
    if (this.count === 1) this.onFirst?.();
    else process.exit(EXIT_EXTERNAL_ABORT);
  };

  install(): void {
    process.on('SIGINT', this.handler);
    process.on('SIGTERM', this.handler);
  }

  remove(): void {
    process.off('SIGINT', this.handler);
    process.off('SIGTERM', this.handler);
  }
}

/** What follows `web-dashboard=` in each `--out web-dashboard[=...]`. */
function dashboardArgs(specs: readonly string[]): string[] {
  return specs.map(splitSpec).flatMap((s) => (s.type === WEB_DASHBOARD ? [s.arg] : []));
}

/**
 * Every file the run will write that is known before it starts (--out files, --summary-export, the web dashboard's
 * export), checked before the script loads: a run must not spend its whole length only to lose its results.
 * handleSummary's paths are known only at the end (see engine/end-of-test.ts). Returns the web dashboard asked for.
 */
function checkKnownOutputs(input: RunInput): DashboardConfig | undefined {
  const targets: OutputTarget[] = outputTargets(input.out, input.processEnv);
  const dashboard = dashboardConfig(input.processEnv, dashboardArgs(input.out));
  if (dashboard?.exportPath)
    targets.push({ flag: dashboard.exportSource ?? 'K6_WEB_DASHBOARD_EXPORT', path: dashboard.exportPath });
  // k6 skips --summary-export with --summary-mode disabled, so it is not checked then.
  if (input.summaryExport && input.summaryMode !== 'disabled')
    targets.push({ flag: '--summary-export', path: input.summaryExport });
  checkOutputTargets(targets);
  return dashboard;
}

/** How the VUs were placed and why, for --verbose. */
function placementText(p: VuPlacement): string {
  if (p.threads === 0)
    return p.explicit
      ? 'VUs: one thread each (--vu-threads 0)'
      : `VUs: one thread each, since they cannot share one: ${p.refusal ?? 'no classic-script bundle'}`;
  const where = `VUs share ${p.threads} thread${p.threads > 1 ? 's' : ''}${p.explicit ? ' (--vu-threads)' : ''}`;
  if (p.awaits) return `${where}; the script's blocking calls run as awaits (runner/script/hosting.ts)`;
  if (p.refusal)
    return `${where}; its blocking calls will stop the run, since they cannot become awaits: ${p.refusal}`;
  return `${where}; the script makes no blocking call in its VUs`;
}

export async function runTest(input: RunInput): Promise<number> {
  tuneHeapForLoad();
  const dashboard = checkKnownOutputs(input);
  const signals = new Signals();
  if (input.handleSignals) signals.install();
  try {
    const plan = await prepareRun(input);
    try {
      return await execute(plan, input, signals, dashboard);
    } finally {
      plan.script.dispose();
    }
  } finally {
    signals.remove();
  }
}

async function execute(
  plan: RunPlan,
  input: RunInput,
  signals: Signals,
  dashboardConfig: DashboardConfig | undefined,
): Promise<number> {
  const { logger } = input;
  const outputs = createOutputs(plan, input);
  const dashboard = dashboardConfig && (await startDashboard(plan, input, dashboardConfig));
  const aggregator = newAggregator(plan, input, dashboard ? [...outputs, dashboard] : outputs);
  if (!input.remote) logger.debug(placementText(plan.placement));
  if (!input.quiet) input.stdout.write(header(plan, input, outputs, dashboard));

  const status = new RunStatus();
  const lifecycle = await runLifecycle({
    plan,
    logger,
    aggregator,
    status,
    signals,
    stdout: input.stdout,
    quiet: input.quiet,
    handedSetup: input.handedSetup,
    remote: input.remote,
  });

  const thresholds = evaluateThresholds(plan.thresholds, lifecycle.durationMs, true);
  for (const o of outputs) await o.close();
  await dashboard?.finish(dashboardEnding(status, thresholds));
  if (!input.remote && Atomics.load(plan.instance, IN_COMPLETED) === 0 && status.exitCode === undefined)
    logger.warn('No script iterations fully finished, consider making the test duration longer');
  if (input.summaryMode !== 'disabled') {
    await writeEndOfTestSummary({
      plan,
      aggregator,
      template: lifecycle.template,
      events: lifecycle.events,
      testRunDurationMs: lifecycle.durationMs,
      setupData: lifecycle.setupData,
      summaryMode: input.summaryMode,
      summaryExport: input.summaryExport,
      noColor: input.noColor,
      stdout: input.stdout,
      logger,
    });
  }
  return exitCode(status, thresholds, logger);
}

/** The --out outputs but the web dashboard, which is no file or stream: it is started on its own (startDashboard). */
function createOutputs(plan: RunPlan, input: RunInput): Output[] {
  return input.out
    .filter((spec) => splitSpec(spec).type !== WEB_DASHBOARD)
    .map((spec) =>
      createOutput(spec, plan.thresholds, plan.systemTags, input.processEnv, (message) =>
        input.logger.error(message),
      ),
    );
}

async function startDashboard(
  plan: RunPlan,
  input: RunInput,
  config: DashboardConfig,
): Promise<WebDashboard> {
  const dashboard = await WebDashboard.start(config, {
    script: input.scriptPath,
    registry: plan.registry,
    onError: (message) => input.logger.error(message),
    replay: input.remote?.replay,
  });
  if (config.openRequested)
    input.logger.warn(
      `K6_WEB_DASHBOARD_OPEN: bench does not start a browser; ${dashboard.url ? `open ${dashboard.url}` : 'no live page is served (K6_WEB_DASHBOARD=true and a port other than -1 serve one)'}`,
    );
  return dashboard;
}

function newAggregator(plan: RunPlan, input: RunInput, sinks: SampleOutput[]): Aggregator {
  const aggregator = new Aggregator(plan.registry, sinks, input.summaryMode === 'full');
  aggregator.onTooManySeries = (n) =>
    input.logger.warn(
      `the test has generated more than ${n} unique time series, which is higher than the suggested limit; high-cardinality tags (e.g. unique URLs without a name tag) slow the runner down and use memory`,
    );
  return aggregator;
}

/** The lines before the run: the banner, then k6's execution, script, output and scenario lines. */
function header(
  plan: RunPlan,
  input: RunInput,
  outputs: Output[],
  dashboard: WebDashboard | undefined,
): string {
  const { placement } = plan;
  // The header stays k6's unless --vu-threads asked for a placement (the default one is in --verbose's log).
  const threads = placement.explicit ? placement.threads : 0;
  const hosting =
    threads > 0 ? ` (--vu-threads ${threads}: VUs share ${threads} thread${threads > 1 ? 's' : ''})` : '';
  const lines = [
    BANNER,
    `     execution: ${input.remote?.description ?? `local${hosting}`}`,
    `        script: ${input.scriptPath}`,
    ...(dashboard?.url ? [` web dashboard: ${dashboard.url}`] : []),
    `        output: ${outputs.length > 0 ? outputs.map((o) => o.description).join(', ') : '-'}`,
    '',
    `     ${planHeader(plan.scenarios, plan.plan, plan.tuple.share)}`,
    ...plan.scenarios.map((s) => `              * ${s.name}: ${describeScenario(s)}`),
    '',
  ];
  return `${lines.join('\n')}\n`;
}

/** The web dashboard's last word on the run. */
function dashboardEnding(status: RunStatus, thresholds: EvaluationResult): string {
  if (status.exitCode !== undefined) return `ended: ${status.errorMessage ?? `exit code ${status.exitCode}`}`;
  if (thresholds.failedMetrics.length > 0)
    return `finished; thresholds crossed on ${thresholds.failedMetrics.join(', ')}`;
  return 'finished';
}

/**
 * The run's exit code, its error logged last: the first error decides; exec.test.fail() (110), then thresholds (99),
 * only apply when nothing else went wrong.
 */
function exitCode(status: RunStatus, thresholds: EvaluationResult, logger: Logger): number {
  if (status.exitCode === undefined && status.failedMessage !== undefined)
    status.setError(
      EXIT_MARKED_AS_FAILED,
      `test marked as failed${status.failedMessage ? `: ${status.failedMessage}` : ''}`,
    );
  if (status.exitCode === undefined && thresholds.failedMetrics.length > 0)
    status.setError(
      EXIT_THRESHOLDS_FAILED,
      `thresholds on metrics '${thresholds.failedMetrics.join(', ')}' have been crossed`,
    );
  if (status.exitCode !== undefined && status.errorMessage) logger.error(status.errorMessage);
  return status.exitCode ?? EXIT_OK;
}
