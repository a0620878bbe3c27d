// Programmatic entry of `bench run`: script + flags -> exit code. The CLI is a thin shell over it.
//   prepare (load, init #0, options) -> outputs, header -> VUs -> setup -> scenarios -> teardown
//   -> final thresholds, outputs closed -> summary (handleSummary or text) -> exit code

import { BenchError, exitCodeOf } from '../core/errors';
import {
  EXIT_EXTERNAL_ABORT,
  EXIT_MARKED_AS_FAILED,
  EXIT_OK,
  EXIT_SCRIPT_ABORTED,
  EXIT_SCRIPT_EXCEPTION,
  EXIT_THRESHOLDS_FAILED,
} from '../core/exit-codes';
import { IN_VUS_ACTIVE, nowMs } from './control-block';
import { writeEndOfTestSummary } from './engine/end-of-test';
import { type PrepareInput, prepareRun, type RunPlan, type VuPlacement } from './engine/prepare';
import { newProgress, runScenario, type ScenarioEnv, type ScenarioProgress } from './engine/scenario-run';
import { runSetup, runTeardown } from './engine/setup-teardown';
import { VuPool } from './engine/vu-pool';
import { planHeader } from './executors/execution-plan';
import { describeScenario } from './executors/index';
import { tuneHeapForLoad } from './heap-tuning';
import { HttpIoPool } from './http/io-pool';
import { Aggregator } from './metrics/aggregator';
import { LoopLagProbe } from './metrics/loop-lag';
import type { MetricRegistry } from './metrics/registry';
import { CounterSink, RateSink } from './metrics/sinks';
import { createOutput, outputTargets, splitSpec, WEB_DASHBOARD } from './outputs/index';
import { ProgressDisplay, type RequestCounts } from './outputs/progress';
import { type DashboardConfig, dashboardConfig } from './outputs/web-dashboard/config';
import { WebDashboard } from './outputs/web-dashboard/index';
import { checkOutputTargets, type OutputTarget } from './outputs/writable';
import { evaluateThresholds } from './thresholds/threshold-set';
import { BENCH_VERSION, TARGET_K6_VERSION } from './version';
import type { RealmData } from './vu/wire';

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
  /**
   * Set when this run is one instance of a test that another process coordinates (`bench run --instances`): setup
   * and teardown run there. `ready()` is called once this run's VUs are initialised and resolves setup()'s result
   * (JSON, undefined when it returned nothing) and when to start the scenarios (epoch ms: every instance starts at
   * the same instant, so their arrival schedules add up to the unsegmented one); `gone` resolving stops the run (the
   * coordinator ended).
   */
  handedSetup?: { ready(): Promise<HandedSetup>; gone?: Promise<void> };
  /** Set when other processes run the scenarios and their samples arrive here (runner/instances/). */
  remote?: RemoteScenarios;
}

/** What the coordinator of `bench run --instances` hands each instance once setup() returned. */
export interface HandedSetup {
  setupData: string | undefined;
  /** When the scenarios start (epoch ms); at once when absent or past. */
  startAtMs?: number;
}

/** Scenarios that run elsewhere: this process runs setup, teardown and the summary on the samples they send. */
export interface RemoteScenarios {
  /** The execution line of the header. */
  description: string;
  /** Starts the instances and resolves once their VUs are initialised (or `aborted` resolves), before setup. */
  start?(aborted: Promise<void>): Promise<void>;
  /** Ends whatever start() began and run() did not finish (setup failed, an error). */
  stop?(): Promise<void>;
  /** Runs the scenarios to their end, feeding their samples to `aggregator`; `abort` stops the whole test. */
  run(ctx: {
    aggregator: Aggregator;
    registry: MetricRegistry;
    setupData: string | undefined;
    /** The scenarios' latest hard end (ms after they start). */
    maxDurationMs: number;
    aborted: Promise<void>;
    abort(code: number, message: string): void;
  }): Promise<void>;
  /** The active and initialised VUs of all instances now (the `vus` and `vus_max` gauges). */
  vus(): { active: number; initialized: number };
  /** The test's length when it is not this process's run time (samples merged after the fact). */
  durationMs?(): number;
  /**
   * Samples from the past (bench merge): this process adds none of its own (vus, vus_max, event-loop lag) and
   * evaluates thresholds once, at the end.
   */
  replay?: boolean;
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
export function placementText(p: VuPlacement): string {
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
  const outputs = input.out
    .filter((spec) => splitSpec(spec).type !== WEB_DASHBOARD)
    .map((spec) =>
      createOutput(spec, plan.thresholds, plan.systemTags, input.processEnv, (message) =>
        logger.error(message),
      ),
    );
  const dashboard =
    dashboardConfig &&
    (await WebDashboard.start(dashboardConfig, {
      script: input.scriptPath,
      registry: plan.registry,
      onError: (message) => logger.error(message),
      replay: input.remote?.replay,
    }));
  if (dashboardConfig?.openRequested)
    logger.warn(
      `K6_WEB_DASHBOARD_OPEN: bench does not start a browser; ${dashboard?.url ? `open ${dashboard.url}` : 'no live page is served (K6_WEB_DASHBOARD=true and a port other than -1 serve one)'}`,
    );
  const aggregator = new Aggregator(
    plan.registry,
    dashboard ? [...outputs, dashboard] : outputs,
    input.summaryMode === 'full',
  );
  aggregator.onTooManySeries = (n) =>
    logger.warn(
      `the test has generated more than ${n} unique time series, which is higher than the suggested limit; high-cardinality tags (e.g. unique URLs without a name tag) slow the runner down and use memory`,
    );

  const placement = plan.placement;
  if (!input.remote) logger.debug(placementText(placement));
  if (!input.quiet) {
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
    input.stdout.write(`${lines.join('\n')}\n`);
  }

  // Exit code: the first error decides; thresholds (99) only apply when nothing else went wrong.
  let exitCode: number | undefined;
  let errorMessage: string | undefined;
  const setError = (code: number, message: string) => {
    if (exitCode === undefined) {
      exitCode = code;
      errorMessage = message;
    }
  };
  let abortResolve: () => void = () => {};
  const aborted = new Promise<void>((resolve) => {
    abortResolve = resolve;
  });
  let isAborted = false;
  const abort = (code: number, message: string) => {
    setError(code, message);
    if (!isAborted) {
      isAborted = true;
      abortResolve();
    }
  };
  let testFailed: string | undefined;
  const events = {
    aggregator,
    logger,
    onAbort: (message: string, code?: number) =>
      code === undefined
        ? abort(EXIT_SCRIPT_ABORTED, `test aborted${message ? `: ${message}` : ''}`)
        : abort(code, message),
    onTestFail: (message: string) => {
      testFailed ??= message;
    },
  };

  // setup() is interrupted at its next sleep or HTTP call with an error it can catch once (k6 interrupts it outright):
  // bench's experiments delete the namespaces they made there, where teardown() cannot (it does not run after a
  // failed setup()), and a setup() of hours on a billed service is not waited for.
  let inSetup = false;
  signals.onFirst = () => {
    logger.warn(
      inSetup
        ? 'Stopping the test: setup() is interrupted at its next sleep or request, and its error handling runs (press Ctrl+C again to exit immediately, skipping any cleanup)'
        : 'Stopping the test (press Ctrl+C again to exit immediately)',
    );
    abort(EXIT_EXTERNAL_ABORT, 'test run was aborted because bench received a signal');
  };
  if (signals.count > 0) signals.onFirst();
  void input.handedSetup?.gone?.then(() =>
    abort(EXIT_EXTERNAL_ABORT, 'the coordinating bench run ended: this instance stopped'),
  );

  const runStart = nowMs();
  // Its worker starts with the first VU or realm connected to it (setup, teardown, VUs with a thread each).
  const http = HttpIoPool.lazy();
  const template: Omit<RealmData, 'mode' | 'vuId' | 'signal' | 'httpPort'> = {
    bundleUrl: plan.script.bundleUrl,
    scriptDir: plan.script.dir,
    env: plan.env,
    testOptions: plan.testOptions,
    runTags: plan.runTags,
    systemTags: plan.systemTags,
    httpOptions: plan.httpOptions,
    minIterationDuration: plan.minIterationDuration,
    instance: plan.instance,
    testStart: runStart,
    sharedArrays: plan.init.sharedArrays,
    vuIds: plan.tuple.whole ? undefined : plan.tuple.stripe(),
  };
  const vuThreads = placement.threads;
  const hostedScriptPath = plan.script.hostedScriptPath;
  const pool = new VuPool(
    template,
    events,
    http,
    plan.instance,
    vuThreads > 0 && hostedScriptPath
      ? {
          scriptPath: hostedScriptPath,
          threads: vuThreads,
          awaits: placement.awaits,
          shifts: placement.shifts,
          refusal: placement.refusal,
        }
      : undefined,
  );
  const progress: ScenarioProgress[] = plan.scenarios.map(newProgress);
  const display = new ProgressDisplay({
    scenarios: progress,
    instance: plan.instance,
    out: input.stdout,
    enabled: !input.quiet && !input.remote,
    maxDuration: plan.plan.maxDuration,
    plannedVUs: plan.plan.plannedPeak,
    counts: () => requestCounts(plan.registry),
  });
  logger.around = (write) => display.above(write);

  // vus / vus_max every second, event-loop lag (this thread's, thread:main, and each HTTP I/O worker's,
  // thread:http), thresholds every 2 s.
  const loopLag = new LoopLagProbe();
  const mainLagTags = { ...plan.runTags, thread: 'main' };
  const ioLagTags = Array.from({ length: http.size }, (_, i) => ({
    ...plan.runTags,
    thread: http.size === 1 ? 'http' : `http-${i + 1}`,
  }));
  // Before the first scenario starts and after the last one ended only vus_max is sampled, so `vus` reads like
  // k6's (e.g. "1 min=1 max=1" for a one-VU test rather than a 0 from before or after the run).
  const tick = (withVus = true) => {
    if (input.remote?.replay) return;
    const time = nowMs();
    const vus = input.remote?.vus() ?? {
      active: Atomics.load(plan.instance, IN_VUS_ACTIVE),
      initialized: pool.initialized,
    };
    if (withVus) aggregator.addLocal({ metric: 'vus', time, value: vus.active, tags: plan.runTags });
    aggregator.addLocal({ metric: 'vus_max', time, value: vus.initialized, tags: plan.runTags });
    aggregator.addLocal({ metric: 'bench_event_loop_lag', time, value: loopLag.take(), tags: mainLagTags });
    const ioLag = http.takeLoopLag();
    for (let i = 0; i < ioLag.length; i++)
      if (!Number.isNaN(ioLag[i]))
        aggregator.addLocal({ metric: 'bench_event_loop_lag', time, value: ioLag[i], tags: ioLagTags[i] });
    const hostLag = pool.takeHostLoopLag();
    for (let i = 0; i < hostLag.length; i++) {
      const thread = vuThreads === 1 ? 'vu-host' : `vu-host-${i + 1}`;
      aggregator.addLocal({
        metric: 'bench_event_loop_lag',
        time,
        value: hostLag[i],
        tags: { ...plan.runTags, thread },
      });
    }
  };
  let ticker: NodeJS.Timeout | undefined;
  const thresholdTimer = setInterval(() => {
    if (input.remote?.replay) return;
    const r = evaluateThresholds(plan.thresholds, nowMs() - runStart, false);
    if (r.abort)
      abort(
        EXIT_THRESHOLDS_FAILED,
        `thresholds on metrics '${r.failedMetrics.join(', ')}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`,
      );
  }, 2000);

  let setupData: string | undefined;
  let setupFailed = false;
  const exported = plan.init.exports;
  // An instance of `bench run --instances` is handed the coordinator's setup() data instead of running it.
  const runsSetup = exported.setup === 'function' && plan.options.noSetup !== true && !input.handedSetup;
  try {
    try {
      display.start();
      if (input.remote) await input.remote.start?.(aborted);
      else {
        // setup()'s I/O worker boots beside the VUs' initialisation rather than after it (whenBooted).
        if (runsSetup) http.startFor(0);
        await pool.prepare(plan.plan.plannedPeak);
      }
    } catch (error) {
      throw error instanceof BenchError
        ? error
        : new BenchError((error as Error).message, EXIT_SCRIPT_EXCEPTION);
    }
    // Starting the VU threads keeps this thread busy for a while: that is start-up, not lag under load.
    loopLag.take();
    http.takeLoopLag();
    pool.takeHostLoopLag();
    tick(false);
    ticker = setInterval(tick, 1000);

    const noTeardown = plan.options.noTeardown === true;
    // Stopped while the VUs were initialised: no setup, so no teardown either.
    if (isAborted) setupFailed = true;
    else if (input.handedSetup) {
      const handed = await input.handedSetup.ready();
      setupData = handed.setupData;
      const wait = (handed.startAtMs ?? 0) - Date.now();
      if (wait > 0) await Promise.race([new Promise((resolve) => setTimeout(resolve, wait)), aborted]);
    } else if (runsSetup) {
      display.phase = 'setup';
      inSetup = true;
      const outcome = await runSetup(template, http, events, plan.setupTimeout, aborted).finally(() => {
        inSetup = false;
      });
      if (outcome.ok) setupData = outcome.data;
      else {
        setupFailed = true;
        // The abort's reason is the run's error; how setup() ended is worth a line of its own.
        if (isAborted && !outcome.aborted) logger.warn(`setup() did not finish: ${outcome.message}`);
        if (outcome.aborted) abort(outcome.exitCode, outcome.message);
        else setError(outcome.exitCode, outcome.message);
      }
    }

    if (!setupFailed && !isAborted) {
      // No thread boots while scenarios run: an HTTP I/O worker that setup() started loads undici
      // (docs/runner-measurements.md §4.2), whose CPU on a small machine comes out of the first starts
      // (docs/runner-measurements.md §2.2). One that failed to boot fails its requests.
      await Promise.race([http.whenBooted().catch(() => {}), aborted]);
      const testStart = nowMs();
      const env: ScenarioEnv = {
        pool,
        instance: plan.instance,
        testStart,
        setupData,
        runTags: plan.runTags,
        aborted,
        isAborted: () => isAborted,
        emitDropped: (scenario, values, time) => {
          for (const value of values)
            aggregator.addLocal({
              metric: 'dropped_iterations',
              time,
              value,
              tags: env.droppedTags(scenario),
            });
        },
        droppedTags: (scenario) =>
          plan.systemTags.includes('scenario') ? { ...plan.runTags, scenario } : { ...plan.runTags },
        warn: (m) => logger.warn(m),
        onStarted: tick,
      };
      display.phase = 'running';
      if (input.remote)
        await input.remote.run({
          aggregator,
          registry: plan.registry,
          setupData,
          maxDurationMs: plan.plan.maxDuration,
          aborted,
          abort,
        });
      else await Promise.all(plan.scenarios.map((c, i) => runScenario(c, progress[i], env)));
    }

    if (exported.teardown === 'function' && !noTeardown && !setupFailed && !input.handedSetup) {
      display.phase = 'teardown';
      const outcome = await runTeardown(template, http, events, plan.teardownTimeout, setupData);
      if (!outcome.ok) setError(outcome.exitCode, outcome.message);
    }
  } catch (error) {
    setError(exitCodeOf(error), (error as Error).message);
  } finally {
    clearInterval(thresholdTimer);
    if (ticker) clearInterval(ticker);
    tick(false);
    loopLag.stop();
    display.stop();
    logger.around = undefined;
    await input.remote?.stop?.();
    await pool.closeAll();
    await http.close();
  }

  const testRunDurationMs = input.remote?.durationMs?.() ?? nowMs() - runStart;
  const result = evaluateThresholds(plan.thresholds, testRunDurationMs, true);
  for (const o of outputs) await o.close();
  await dashboard?.finish(
    exitCode !== undefined
      ? `ended: ${errorMessage ?? `exit code ${exitCode}`}`
      : result.failedMetrics.length > 0
        ? `finished; thresholds crossed on ${result.failedMetrics.join(', ')}`
        : 'finished',
  );
  if (!input.remote && Atomics.load(plan.instance, 0) === 0 && exitCode === undefined)
    logger.warn('No script iterations fully finished, consider making the test duration longer');

  if (input.summaryMode !== 'disabled') {
    await writeEndOfTestSummary({
      plan,
      aggregator,
      template,
      events,
      testRunDurationMs,
      setupData,
      summaryMode: input.summaryMode,
      summaryExport: input.summaryExport,
      noColor: input.noColor,
      stdout: input.stdout,
      logger,
    });
  }

  if (exitCode === undefined && testFailed !== undefined)
    setError(EXIT_MARKED_AS_FAILED, `test marked as failed${testFailed ? `: ${testFailed}` : ''}`);
  if (exitCode === undefined && result.failedMetrics.length > 0)
    setError(
      EXIT_THRESHOLDS_FAILED,
      `thresholds on metrics '${result.failedMetrics.join(', ')}' have been crossed`,
    );
  if (exitCode !== undefined && errorMessage) logger.error(errorMessage);
  return exitCode ?? EXIT_OK;
}

/** http_reqs and the failed ones so far, for the progress head line. */
function requestCounts(registry: MetricRegistry): RequestCounts {
  const reqs = registry.get('http_reqs')?.sink;
  const failed = registry.get('http_req_failed')?.sink;
  return {
    requests: reqs instanceof CounterSink ? reqs.count : 0,
    failed: failed instanceof RateSink ? failed.trues : 0,
  };
}
