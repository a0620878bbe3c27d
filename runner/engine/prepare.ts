// Everything before the first VU: load the script, run init #0, consolidate option layers, derive and validate
// scenarios, and check thresholds against the metric registry. Shared by `bench run` and `bench inspect`.
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseDuration } from '../../core/durations';
import { BenchError } from '../../core/errors';
import { EXIT_GENERIC_ERROR, EXIT_INVALID_CONFIG, EXIT_SCRIPT_EXCEPTION } from '../../core/exit-codes';
import { INSTANCE_WORDS, newInt32Block, nowMs } from '../control-block';
import { type ExecutionPlan, executionPlan } from '../executors/execution-plan';
import { executorOf, parseScenario, type ScenarioConfig, scriptScenarioProblems } from '../executors/index';
import { ExecutionTuple, parseSegment, parseSequence, segmentText } from '../executors/segments';
import { defaultHttpOptions } from '../http/default-options';
import { tlsClientOptions } from '../http/tls-options';
import { Aggregator } from '../metrics/aggregator';
import { MetricRegistry } from '../metrics/registry';
import type { HttpModuleOptions } from '../modules/module-host';
import { consolidate, type Options } from '../options/consolidate';
import { deriveScenarios } from '../options/derive-scenarios';
import { optionsFromEnv } from '../options/env-options';
import {
  ALL_SYSTEM_TAGS,
  DEFAULT_SYSTEM_TAGS,
  DEFAULT_TREND_STATS,
  KNOWN_OPTION_KEYS,
  UNIMPLEMENTED_OPTIONS,
} from '../options/option-keys';
import { applyInsertions, type ColumnShift, columnShifts } from '../script/await-edits';
import { type LoadedScript, loadScript } from '../script/bundle';
import { hostingVerdict } from '../script/hosting';
import { buildThresholds, type Threshold } from '../thresholds/threshold-set';
import type { InitReport } from '../vu/wire';
import type { Logger } from './logger';
import { runTransientRealm } from './transient-realm';

export interface PrepareInput {
  scriptPath: string;
  /** The "cli" option layer (flags). */
  cliOptions: Options;
  /** -e/--env pairs. */
  cliEnv: Record<string, string>;
  processEnv: Record<string, string | undefined>;
  includeSystemEnvVars: boolean;
  configFile?: string;
  noThresholds: boolean;
  /**
   * bench `--vu-threads N` (BENCH_VU_THREADS): VUs hosted on N shared threads; 0: one thread per VU (k6's model);
   * undefined: hosted when the script allows it (runner/script/hosting.ts), else one thread per VU.
   */
  vuThreads?: number;
  logger: Logger;
}

export interface RunPlan {
  script: LoadedScript;
  init: InitReport;
  options: Options;
  /** Options as exec.test.options shows them: scenarios filled in, shortcut keys removed. */
  testOptions: Options;
  scenarios: ScenarioConfig[];
  plan: ExecutionPlan;
  /** This instance's execution segment within its sequence (the whole test without segments). */
  tuple: ExecutionTuple;
  registry: MetricRegistry;
  thresholds: Threshold[];
  env: Record<string, string>;
  runTags: Record<string, string>;
  systemTags: string[];
  trendStats: string[];
  timeUnit: string;
  httpOptions: HttpModuleOptions;
  setupTimeout: number;
  teardownTimeout: number;
  handleSummaryTimeout: number;
  minIterationDuration: number;
  instance: Int32Array;
  placement: VuPlacement;
}

/** Where the VUs run: on shared host threads (runner/vu-host.worker.ts) or one thread each. */
export interface VuPlacement {
  /** Host threads the VUs share; 0: one thread per VU. */
  threads: number;
  /** --vu-threads chose it (else the analysis did). */
  explicit: boolean;
  /** The hosted bundle's blocking calls were made awaits; `shifts` map its columns back for stack frames. */
  awaits: boolean;
  shifts: ColumnShift[];
  /** Why the VUs cannot share a thread as the script is written (the analysis's refusal), when that is so. */
  refusal?: string;
}

/** Host threads when the runner chooses: one per CPU but one, left to the main thread (samples, outputs). */
function defaultHostThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Decides the placement from --vu-threads and the hosted bundle, rewriting the bundle when its calls become awaits. */
function placeVus(vuThreads: number | undefined, script: LoadedScript): VuPlacement {
  const none: VuPlacement = { threads: 0, explicit: vuThreads === 0, awaits: false, shifts: [] };
  const hostedScriptPath = script.hostedScriptPath;
  if (vuThreads === 0) return none;
  if (!hostedScriptPath) return { ...none, refusal: script.hostedProblem };
  const code = readFileSync(hostedScriptPath, 'utf8');
  const verdict = hostingVerdict(code);
  const threads = vuThreads ?? defaultHostThreads();
  const explicit = vuThreads !== undefined;
  if (verdict.kind === 'threads')
    return explicit
      ? { threads, explicit, awaits: false, shifts: [], refusal: verdict.reason }
      : { ...none, refusal: verdict.reason };
  if (verdict.kind === 'as-is') return { threads, explicit, awaits: false, shifts: [] };
  writeFileSync(hostedScriptPath, applyInsertions(code, verdict.edits));
  return { threads, explicit, awaits: true, shifts: columnShifts(code, verdict.edits) };
}

const ENV_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function configLayer(path: string | undefined, env: Record<string, string | undefined>): Options {
  const file = path ?? env.K6_CONFIG;
  if (!file) return {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Options;
    return parsed.options && typeof parsed.options === 'object' ? (parsed.options as Options) : parsed;
  } catch (error) {
    throw new BenchError(
      `could not read config file ${file}: ${(error as Error).message}`,
      EXIT_INVALID_CONFIG,
    );
  }
}

function durationOption(options: Options, key: string, fallback: number, problems: string[]): number {
  const v = options[key];
  if (v === undefined || v === null) return fallback;
  try {
    return parseDuration(v);
  } catch (error) {
    problems.push(`${key}: ${(error as Error).message}`);
    return fallback;
  }
}

function stringList(
  options: Options,
  key: string,
  fallback: readonly string[],
  problems: string[],
): string[] {
  const v = options[key];
  if (v === undefined || v === null) return [...fallback];
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
  problems.push(`${key} must be a list of strings`);
  return [...fallback];
}

/** The executionSegment / executionSegmentSequence options as this instance's place in the split. */
function executionTuple(options: Options, problems: string[]): ExecutionTuple {
  const text = (key: string): string | undefined => {
    const v = options[key];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'string') return v;
    problems.push(`${key} must be a string such as '1/3:2/3' (segment) or '0,1/3,2/3,1' (sequence)`);
    return undefined;
  };
  try {
    const segment = text('executionSegment');
    const sequence = text('executionSegmentSequence');
    return ExecutionTuple.of(
      segment === undefined ? undefined : parseSegment(segment),
      sequence === undefined ? undefined : parseSequence(sequence),
    );
  } catch (error) {
    problems.push((error as Error).message);
    return ExecutionTuple.of(undefined, undefined);
  }
}

export async function prepareRun(
  input: PrepareInput,
  events: { aggregator?: Aggregator } = {},
): Promise<RunPlan> {
  for (const k of Object.keys(input.cliEnv))
    if (!ENV_NAME.test(k))
      throw new BenchError(
        `invalid environment variable name "${k}" in --env: use letters, digits and "_"`,
        EXIT_INVALID_CONFIG,
      );
  const env: Record<string, string> = {};
  if (input.includeSystemEnvVars)
    for (const [k, v] of Object.entries(input.processEnv)) if (v !== undefined) env[k] = v;
  Object.assign(env, input.cliEnv);

  try {
    readFileSync(input.scriptPath);
  } catch (error) {
    throw new BenchError(
      `could not read script ${input.scriptPath}: ${(error as Error).message}`,
      EXIT_GENERIC_ERROR,
    );
  }
  const script = await loadScript(input.scriptPath, {
    hosted: input.vuThreads === undefined ? 'if-possible' : input.vuThreads > 0,
  });
  for (const note of script.notes) input.logger.warn(note);
  try {
    return await prepareLoaded(input, events, script, env);
  } catch (error) {
    // Any problem after loading (init, options, validation) leaves no temporary bundle behind.
    script.dispose();
    throw error;
  }
}

async function prepareLoaded(
  input: PrepareInput,
  events: { aggregator?: Aggregator },
  script: LoadedScript,
  env: Record<string, string>,
): Promise<RunPlan> {
  const { logger } = input;
  const registry = new MetricRegistry();
  const aggregator = events.aggregator ?? new Aggregator(registry, []);
  const instance = newInt32Block(INSTANCE_WORDS);
  const baseHttp = defaultHttpOptions();
  // The placement analysis (a parse of the bundle) runs here while init #0 runs in its own thread.
  const [init, placement] = await Promise.all([
    runTransientRealm(
      'init0',
      {
        bundleUrl: script.bundleUrl,
        scriptDir: script.dir,
        env,
        testOptions: {},
        runTags: {},
        systemTags: [...DEFAULT_SYSTEM_TAGS],
        httpOptions: baseHttp,
        minIterationDuration: 0,
        instance,
        testStart: nowMs(),
        sharedArrays: {},
      },
      { aggregator, logger, onAbort: () => {}, onTestFail: () => {} },
      60_000,
    ),
    (async () => placeVus(input.vuThreads, script))(),
  ]);
  if (init.type !== 'init0') {
    const message =
      init.type === 'initError'
        ? init.message
        : init.type === 'result' && !init.ok
          ? init.message
          : 'init timed out';
    throw new BenchError(message, EXIT_SCRIPT_EXCEPTION);
  }
  const fail = (message: string, code: number): never => {
    throw new BenchError(message, code);
  };
  const exported = init.exports;
  if (!Object.values(exported).includes('function'))
    fail('no exported functions in script', EXIT_SCRIPT_EXCEPTION);
  for (const name of ['setup', 'teardown', 'handleSummary'])
    if (name in exported && exported[name] !== 'function')
      fail(`exported ${name} must be a function, got ${exported[name]}`, EXIT_SCRIPT_EXCEPTION);

  const unknown = Object.keys(init.options).filter((k) => !KNOWN_OPTION_KEYS.has(k));
  if (unknown.length > 0)
    logger.warn(`There were unknown fields in the options exported in the script: ${unknown.join(', ')}`);

  const { options, warnings } = consolidate([
    { name: 'config', options: configLayer(input.configFile, input.processEnv) },
    { name: 'script', options: init.options },
    { name: 'env', options: optionsFromEnv(input.processEnv) },
    { name: 'cli', options: input.cliOptions },
  ]);
  for (const w of warnings) logger.warn(w);

  const ignored = UNIMPLEMENTED_OPTIONS.filter(
    (k) => options[k] !== undefined && options[k] !== null && options[k] !== false,
  );
  if (ignored.length > 0)
    logger.warn(
      `bench's runner does not implement these options; they have no effect: ${ignored.join(', ')}`,
    );

  const problems: string[] = [];
  const derived = deriveScenarios(options);
  for (const w of derived.warnings) logger.warn(w);
  problems.push(...derived.problems);
  const tuple = executionTuple(options, problems);
  const scenarios: ScenarioConfig[] = [];
  for (const [name, raw] of Object.entries(derived.scenarios)) {
    const c = parseScenario(name, raw, problems);
    if (!c) continue;
    if (exported[c.exec] !== 'function')
      problems.push(`executor ${name}: function '${c.exec}' not found in exports`);
    if (tuple.whole) {
      scenarios.push(c);
      continue;
    }
    const part = executorOf(c).segment(c, tuple);
    if (part) scenarios.push(part);
    else
      logger.warn(
        `Executor '${name}' is disabled for segment ${segmentText(tuple.segment)} due to lack of work: its share of the scenario's VUs or iterations is 0`,
      );
  }

  // The script's own scenarios are decoded strictly even when a higher layer replaced them, as in k6.
  for (const p of scriptScenarioProblems(init.options.scenarios)) if (!problems.includes(p)) problems.push(p);

  for (const [name, type, contains] of init.metrics) {
    try {
      registry.define(name, type, contains);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }

  const systemTags = stringList(options, 'systemTags', DEFAULT_SYSTEM_TAGS, problems);
  for (const t of systemTags)
    if (!ALL_SYSTEM_TAGS.has(t)) problems.push(`systemTags: unknown system tag "${t}"`);
  const trendStats = stringList(options, 'summaryTrendStats', DEFAULT_TREND_STATS, problems);
  for (const s of trendStats)
    if (!['avg', 'min', 'med', 'max', 'count'].includes(s) && !/^p\(\d+(\.\d+)?\)$/.test(s))
      problems.push(`summaryTrendStats: invalid stat "${s}" (use avg, min, med, max, count or p(N))`);
  const timeUnit = typeof options.summaryTimeUnit === 'string' ? options.summaryTimeUnit : '';
  if (!['', 's', 'ms', 'us'].includes(timeUnit))
    problems.push(`summaryTimeUnit: "${timeUnit}" is not one of s, ms, us`);
  const runTags: Record<string, string> = {};
  if (options.tags !== undefined && options.tags !== null) {
    if (typeof options.tags !== 'object' || Array.isArray(options.tags))
      problems.push('tags must be an object');
    else for (const [k, v] of Object.entries(options.tags as object)) runTags[k] = String(v);
  }

  let thresholds: Threshold[] = [];
  if (registry.get('http_req_duration') && systemTags.includes('expected_response'))
    registry.addSubmetric(
      registry.get('http_req_duration') as never,
      'http_req_duration{expected_response:true}',
      {
        expected_response: 'true',
      },
    );
  if (!input.noThresholds) {
    const built = buildThresholds(options.thresholds, registry);
    thresholds = built.thresholds;
    problems.push(...built.problems);
    for (const w of built.warnings) logger.warn(w);
  } else if (options.thresholds) {
    // --no-thresholds: nothing is evaluated, and definition errors are only warnings (as k6).
    for (const p of buildThresholds(options.thresholds, registry).problems) logger.warn(p);
  }

  const setupTimeout = durationOption(options, 'setupTimeout', 60_000, problems);
  const teardownTimeout = durationOption(options, 'teardownTimeout', 60_000, problems);
  const handleSummaryTimeout = durationOption(options, 'handleSummaryTimeout', 120_000, problems);
  const minIterationDuration = durationOption(options, 'minIterationDuration', 0, problems);
  const tls = tlsClientOptions(options.tlsVersion, options.tlsCipherSuites, problems);
  if (problems.length > 0) fail(problems.join('\n'), EXIT_INVALID_CONFIG);

  const httpDebug = options.httpDebug;
  const httpOptions: HttpModuleOptions = {
    ...baseHttp,
    userAgent: typeof options.userAgent === 'string' ? options.userAgent : baseHttp.userAgent,
    maxRedirects: typeof options.maxRedirects === 'number' ? options.maxRedirects : 10,
    batch: typeof options.batch === 'number' ? options.batch : 20,
    batchPerHost: typeof options.batchPerHost === 'number' ? options.batchPerHost : 6,
    discardResponseBodies: options.discardResponseBodies === true,
    throw: options.throw === true,
    insecureSkipTLSVerify: options.insecureSkipTLSVerify === true,
    tls,
    noConnectionReuse: options.noConnectionReuse === true,
    noVUConnectionReuse: options.noVUConnectionReuse === true,
    noCookiesReset: options.noCookiesReset === true,
    systemTags,
    httpDebug: httpDebug === 'full' ? 'full' : httpDebug ? 'headers' : '',
  };

  const testOptions: Options = { ...options };
  for (const k of ['vus', 'iterations', 'duration', 'stages']) delete testOptions[k];
  testOptions.scenarios = derived.scenarios;

  return {
    script,
    init,
    options,
    testOptions,
    scenarios,
    plan: executionPlan(scenarios),
    tuple,
    registry,
    thresholds,
    env,
    runTags,
    systemTags,
    trendStats,
    timeUnit,
    httpOptions,
    setupTimeout,
    teardownTimeout,
    handleSummaryTimeout,
    minIterationDuration,
    instance,
    placement,
  };
}
