// The lifecycle of one test, after its script is prepared and before its summary:
//   VUs initialised -> setup() -> scenarios (scenario-run.ts) -> teardown()
// with their timeouts, and the ways it ends early: a signal, exec.test.abort(), a threshold with abortOnFail, the
// coordinator of an instance gone. An instance of `bench run --instances` is handed its coordinator's setup() data
// instead of running setup(); a coordinator, and `bench merge`, have their scenarios run elsewhere (RemoteScenarios).
// run-test.ts wraps it: outputs and header before, summary and exit code after.
import { BenchError, exitCodeOf } from '../../core/errors';
import {
  EXIT_EXTERNAL_ABORT,
  EXIT_SCRIPT_ABORTED,
  EXIT_SCRIPT_EXCEPTION,
  EXIT_THRESHOLDS_FAILED,
} from '../../core/exit-codes';
import { IN_VUS_ACTIVE, nowMs } from '../control-block';
import { HttpIoPool } from '../http/io-pool';
import type { Aggregator } from '../metrics/aggregator';
import type { MetricRegistry } from '../metrics/registry';
import { CounterSink, RateSink } from '../metrics/sinks';
import { ProgressDisplay, type RequestCounts } from '../outputs/progress';
import { evaluateThresholds } from '../thresholds/threshold-set';
import type { RealmData } from '../vu/wire';
import type { Logger } from './logger';
import type { RunPlan } from './prepare';
import type { RealmEvents } from './realm-handle';
import { RunGauges } from './run-gauges';
import type { RunStatus } from './run-status';
import { newProgress, runScenario, type ScenarioEnv, type ScenarioProgress } from './scenario-run';
import { runSetup, runTeardown } from './setup-teardown';
import { VuPool } from './vu-pool';

/** What every realm of the run starts from; each adds its mode, VU id, signal words and HTTP port. */
type RealmTemplate = Omit<RealmData, 'mode' | 'vuId' | 'signal' | 'httpPort'>;

/** What the coordinator of `bench run --instances` hands each instance once setup() returned. */
export interface HandedSetup {
  setupData: string | undefined;
  /** When the scenarios start (epoch ms); at once when absent or past. */
  startAtMs?: number;
}

/**
 * A run that is one instance of a test another process coordinates (`bench run --instances`): setup and teardown run
 * there. `ready()` is called once this run's VUs are initialised and resolves setup()'s result (JSON, undefined when it
 * returned nothing) and when to start the scenarios (epoch ms: every instance starts at the same instant, so their
 * arrival schedules add up to the unsegmented one); `gone` resolving stops the run (the coordinator ended).
 */
export interface SetupSource {
  ready(): Promise<HandedSetup>;
  gone?: Promise<void>;
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

/** SIGINT/SIGTERM as the lifecycle sees them: how many came so far, and what the first one does. */
interface Interruptions {
  readonly count: number;
  onFirst: (() => void) | undefined;
}

export interface LifecycleInput {
  plan: RunPlan;
  logger: Logger;
  aggregator: Aggregator;
  status: RunStatus;
  signals: Interruptions;
  /** Where the progress display draws; -q hides it. */
  stdout: NodeJS.WriteStream;
  quiet: boolean;
  handedSetup?: SetupSource;
  remote?: RemoteScenarios;
}

/** What the end of the test needs from its lifecycle (handleSummary runs in a realm like setup()'s). */
export interface LifecycleEnd {
  /** setup()'s result as JSON, undefined when it returned nothing or did not run. */
  setupData: string | undefined;
  durationMs: number;
  template: RealmTemplate;
  events: RealmEvents;
}

/** Runs the test from its VUs' initialisation to teardown(); errors end up in `input.status`, never thrown. */
export async function runLifecycle(input: LifecycleInput): Promise<LifecycleEnd> {
  return new Lifecycle(input).run();
}

/** How the realms' exec.test.abort() and exec.test.fail() reach the run. */
function realmEvents(aggregator: Aggregator, logger: Logger, status: RunStatus): RealmEvents {
  return {
    aggregator,
    logger,
    onAbort: (message: string, code?: number) =>
      code === undefined
        ? status.abort(EXIT_SCRIPT_ABORTED, `test aborted${message ? `: ${message}` : ''}`)
        : status.abort(code, message),
    onTestFail: (message: string) => status.markFailed(message),
  };
}

function realmTemplate(plan: RunPlan, testStart: number): RealmTemplate {
  return {
    bundleUrl: plan.script.bundleUrl,
    scriptDir: plan.script.dir,
    env: plan.env,
    testOptions: plan.testOptions,
    runTags: plan.runTags,
    systemTags: plan.systemTags,
    httpOptions: plan.httpOptions,
    minIterationDuration: plan.minIterationDuration,
    instance: plan.instance,
    testStart,
    sharedArrays: plan.init.sharedArrays,
    vuIds: plan.tuple.whole ? undefined : plan.tuple.stripe(),
  };
}

function newVuPool(plan: RunPlan, template: RealmTemplate, events: RealmEvents, http: HttpIoPool): VuPool {
  const { placement } = plan;
  const hostedScriptPath = plan.script.hostedScriptPath;
  return new VuPool(
    template,
    events,
    http,
    plan.instance,
    placement.threads > 0 && hostedScriptPath
      ? {
          scriptPath: hostedScriptPath,
          threads: placement.threads,
          awaits: placement.awaits,
          shifts: placement.shifts,
          refusal: placement.refusal,
        }
      : undefined,
  );
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

/** Thresholds every 2 s while the test runs: one with abortOnFail that is crossed stops it. Returns the stop. */
function watchThresholds(plan: RunPlan, runStart: number, status: RunStatus, replay: boolean): () => void {
  const timer = setInterval(() => {
    if (replay) return;
    const r = evaluateThresholds(plan.thresholds, nowMs() - runStart, false);
    if (r.abort)
      status.abort(
        EXIT_THRESHOLDS_FAILED,
        `thresholds on metrics '${r.failedMetrics.join(', ')}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`,
      );
  }, 2000);
  return () => clearInterval(timer);
}

class Lifecycle {
  private readonly events: RealmEvents;
  private readonly runStart: number;
  /** Its worker starts with the first VU or realm connected to it (setup, teardown, VUs with a thread each). */
  private readonly http = HttpIoPool.lazy();
  private readonly template: RealmTemplate;
  private readonly pool: VuPool;
  private readonly progress: ScenarioProgress[];
  private readonly display: ProgressDisplay;
  private readonly gauges: RunGauges;
  /** An instance of `bench run --instances` is handed the coordinator's setup() data instead of running it. */
  private readonly runsSetup: boolean;
  private inSetup = false;
  private setupData: string | undefined;

  constructor(private readonly input: LifecycleInput) {
    const { plan, logger, aggregator, status, remote } = input;
    this.events = realmEvents(aggregator, logger, status);
    this.handleInterruptions();
    this.runStart = nowMs();
    this.template = realmTemplate(plan, this.runStart);
    this.pool = newVuPool(plan, this.template, this.events, this.http);
    this.progress = plan.scenarios.map(newProgress);
    this.display = new ProgressDisplay({
      scenarios: this.progress,
      instance: plan.instance,
      out: input.stdout,
      // Scenarios that run elsewhere leave nothing to draw here.
      enabled: !input.quiet && !remote,
      maxDuration: plan.plan.maxDuration,
      plannedVUs: plan.plan.plannedPeak,
      counts: () => requestCounts(plan.registry),
    });
    logger.around = (write) => this.display.above(write);
    this.gauges = new RunGauges({
      aggregator,
      runTags: plan.runTags,
      http: this.http,
      pool: this.pool,
      vuThreads: plan.placement.threads,
      vus: remote
        ? () => remote.vus()
        : () => ({ active: Atomics.load(plan.instance, IN_VUS_ACTIVE), initialized: this.pool.initialized }),
      replay: remote?.replay === true,
    });
    this.runsSetup =
      plan.init.exports.setup === 'function' && plan.options.noSetup !== true && !input.handedSetup;
  }

  /**
   * A first signal stops the run; a signal that came while the script was prepared stops it now. setup() is
   * interrupted at its next sleep or HTTP call with an error it can catch once (k6 interrupts it outright): bench's
   * experiments delete the namespaces they made there, where teardown() cannot (it does not run after a failed
   * setup()), and a setup() of hours on a billed service is not waited for.
   */
  private handleInterruptions(): void {
    const { signals, logger, status, handedSetup } = this.input;
    signals.onFirst = () => {
      logger.warn(
        this.inSetup
          ? 'Stopping the test: setup() is interrupted at its next sleep or request, and its error handling runs (press Ctrl+C again to exit immediately, skipping any cleanup)'
          : 'Stopping the test (press Ctrl+C again to exit immediately)',
      );
      status.abort(EXIT_EXTERNAL_ABORT, 'test run was aborted because bench received a signal');
    };
    if (signals.count > 0) signals.onFirst();
    void handedSetup?.gone?.then(() =>
      status.abort(EXIT_EXTERNAL_ABORT, 'the coordinating bench run ended: this instance stopped'),
    );
  }

  async run(): Promise<LifecycleEnd> {
    const { plan, status, remote } = this.input;
    const stopThresholds = watchThresholds(plan, this.runStart, status, remote?.replay === true);
    try {
      await this.startVus();
      this.gauges.start();
      const setUp = await this.setUp();
      if (setUp && !status.isAborted) await this.runScenarios();
      if (setUp) await this.tearDown();
    } catch (error) {
      status.setError(exitCodeOf(error), (error as Error).message);
    } finally {
      stopThresholds();
      await this.cleanUp();
    }
    return {
      setupData: this.setupData,
      durationMs: remote?.durationMs?.() ?? nowMs() - this.runStart,
      template: this.template,
      events: this.events,
    };
  }

  /** Initialises the planned VUs (or has the instances initialise theirs); a failure is the script's (exit 107). */
  private async startVus(): Promise<void> {
    const { plan, remote, status } = this.input;
    try {
      this.display.start();
      if (remote) await remote.start?.(status.aborted);
      else {
        // setup()'s I/O worker boots beside the VUs' initialisation rather than after it (whenBooted).
        if (this.runsSetup) this.http.startFor(0);
        await this.pool.prepare(plan.plan.plannedPeak);
      }
    } catch (error) {
      throw error instanceof BenchError
        ? error
        : new BenchError((error as Error).message, EXIT_SCRIPT_EXCEPTION);
    }
  }

  /** setup(), or the coordinator's data; false when the test goes no further (no scenarios, no teardown). */
  private async setUp(): Promise<boolean> {
    const { status, handedSetup } = this.input;
    // Stopped while the VUs were initialised: no setup, so no teardown either.
    if (status.isAborted) return false;
    if (handedSetup) {
      await this.takeHandedSetup(handedSetup);
      return true;
    }
    return this.runsSetup ? this.runSetupFunction() : true;
  }

  /** Takes the coordinator's setup() data, then waits for the instant every instance starts its scenarios. */
  private async takeHandedSetup(source: SetupSource): Promise<void> {
    const handed = await source.ready();
    this.setupData = handed.setupData;
    const wait = (handed.startAtMs ?? 0) - Date.now();
    if (wait > 0)
      await Promise.race([new Promise((resolve) => setTimeout(resolve, wait)), this.input.status.aborted]);
  }

  /** Runs the script's setup() under setupTimeout; false when it did not return. */
  private async runSetupFunction(): Promise<boolean> {
    const { plan, logger, status } = this.input;
    this.display.phase = 'setup';
    this.inSetup = true;
    const outcome = await runSetup(
      this.template,
      this.http,
      this.events,
      plan.setupTimeout,
      status.aborted,
    ).finally(() => {
      this.inSetup = false;
    });
    if (outcome.ok) {
      this.setupData = outcome.data;
      return true;
    }
    // The abort's reason is the run's error; how setup() ended is worth a line of its own.
    if (status.isAborted && !outcome.aborted) logger.warn(`setup() did not finish: ${outcome.message}`);
    if (outcome.aborted) status.abort(outcome.exitCode, outcome.message);
    else status.setError(outcome.exitCode, outcome.message);
    return false;
  }

  private async runScenarios(): Promise<void> {
    // No thread boots while scenarios run: an HTTP I/O worker that setup() started loads undici
    // (docs/runner-measurements.md §4.2), whose CPU on a small machine comes out of the first starts
    // (docs/runner-measurements.md §2.2). One that failed to boot fails its requests.
    await Promise.race([this.http.whenBooted().catch(() => {}), this.input.status.aborted]);
    const { remote } = this.input;
    if (remote) await this.runRemoteScenarios(remote);
    else await this.runLocalScenarios();
  }

  private async runLocalScenarios(): Promise<void> {
    const { plan } = this.input;
    const env = this.scenarioEnv(nowMs());
    this.display.phase = 'running';
    await Promise.all(plan.scenarios.map((c, i) => runScenario(c, this.progress[i], env)));
  }

  private async runRemoteScenarios(remote: RemoteScenarios): Promise<void> {
    const { plan, aggregator, status } = this.input;
    this.display.phase = 'running';
    await remote.run({
      aggregator,
      registry: plan.registry,
      setupData: this.setupData,
      maxDurationMs: plan.plan.maxDuration,
      aborted: status.aborted,
      abort: (code, message) => status.abort(code, message),
    });
  }

  private scenarioEnv(testStart: number): ScenarioEnv {
    const { plan, aggregator, logger, status } = this.input;
    const droppedTags = (scenario: string) =>
      plan.systemTags.includes('scenario') ? { ...plan.runTags, scenario } : { ...plan.runTags };
    return {
      pool: this.pool,
      instance: plan.instance,
      testStart,
      setupData: this.setupData,
      runTags: plan.runTags,
      aborted: status.aborted,
      isAborted: () => status.isAborted,
      emitDropped: (scenario, values, time) => {
        for (const value of values)
          aggregator.addLocal({ metric: 'dropped_iterations', time, value, tags: droppedTags(scenario) });
      },
      droppedTags,
      warn: (m) => logger.warn(m),
      onStarted: () => this.gauges.sample(),
    };
  }

  /** Runs the script's teardown(data) under teardownTimeout, unless it has none or it runs elsewhere. */
  private async tearDown(): Promise<void> {
    const { plan, status, handedSetup } = this.input;
    if (plan.init.exports.teardown !== 'function' || plan.options.noTeardown === true || handedSetup) return;
    this.display.phase = 'teardown';
    const outcome = await runTeardown(
      this.template,
      this.http,
      this.events,
      plan.teardownTimeout,
      this.setupData,
    );
    if (!outcome.ok) status.setError(outcome.exitCode, outcome.message);
  }

  /** However the run ended: the last samples, the progress display's final block, then every thread it started. */
  private async cleanUp(): Promise<void> {
    this.gauges.stop();
    this.display.stop();
    this.input.logger.around = undefined;
    await this.input.remote?.stop?.();
    await this.pool.closeAll();
    await this.http.close();
  }
}
