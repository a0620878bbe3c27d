// Messages between the main thread and a VU realm (runner/vu.worker.ts). Per-iteration control goes through
// shared memory (runner/control-block.ts); these messages are per activation or rarer.
import type { MessagePort } from 'node:worker_threads';
import type { Stripe } from '../executors/stripe';
import type { SampleBatch } from '../metrics/sample-batch';
import type { MetricType, ValueType } from '../metrics/sinks';
import type { HttpModuleOptions } from '../modules/module-host';
import type { ColumnShift } from '../script/await-edits';

export type RealmMode = 'init0' | 'vu' | 'setup' | 'teardown' | 'summary';

/** workerData of every realm. */
export interface RealmData {
  mode: RealmMode;
  vuId: number;
  bundleUrl: string;
  scriptDir: string;
  /** __ENV before scenario env. */
  env: Record<string, string>;
  /** Consolidated options with scenarios filled in (exec.test.options); JSON-safe. */
  testOptions: Record<string, unknown>;
  runTags: Record<string, string>;
  systemTags: string[];
  httpOptions: HttpModuleOptions;
  minIterationDuration: number;
  signal: Int32Array;
  instance: Int32Array;
  /** Epoch ms when the run started. */
  testStart: number;
  /** SharedArray name -> JSON of each element, made once per process (by init #0). */
  sharedArrays: Record<string, string[]>;
  httpPort?: MessagePort;
  /** Under execution segments: the test-wide numbers of this instance's VUs (exec.vu.idInTest). */
  vuIds?: Stripe;
  /** For setup/teardown/summary: the function's argument (JSON text; summary: the data object's JSON). */
  argument?: string;
}

export interface ScenarioInfo {
  name: string;
  executor: string;
  exec: string;
  env: Record<string, string>;
  tags: Record<string, string>;
  /** `options.browser.type`: k6/browser works only in such a scenario's iterations. */
  browserType: string | null;
  /** Epoch ms the scenario started. */
  startTime: number;
  /** ms of its regular duration (for exec.scenario.progress). */
  duration: number;
  /** Under execution segments: the test-wide numbers of this instance's iterations (exec.scenario.iterationInTest). */
  iterations?: Stripe;
}

export interface ActivateMessage {
  type: 'activate';
  gen: number;
  scenario: ScenarioInfo;
  block: Int32Array;
  /** What the scenario's executor tells each VU (executors/: its Executor's plan type), structured-clone safe. */
  plan: unknown;
  /** setup() result as JSON, undefined when setup returned nothing. */
  setupData: string | undefined;
}

export type MainToRealm = ActivateMessage | { type: 'interrupt'; gen: number } | { type: 'exit' };

export interface InitReport {
  type: 'init0';
  options: Record<string, unknown>;
  /** Exported name -> typeof. */
  exports: Record<string, string>;
  metrics: Array<[string, MetricType, ValueType]>;
  sharedArrays: Record<string, string[]>;
  unknownOptionWarning?: string;
}

interface LogMessage {
  type: 'log';
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  fields?: Record<string, string>;
}

export type RealmToMain =
  | InitReport
  | LogMessage
  | { type: 'ready' }
  | { type: 'initError'; message: string }
  | { type: 'activationDone'; gen: number; notStarted: number }
  /** `code`: the run's exit code when it is not 108 (exec.test.abort), e.g. 107 for a script the mode cannot run. */
  | { type: 'abort'; message: string; code?: number }
  | { type: 'testFail'; message: string }
  | { type: 'result'; ok: true; value: string | undefined; outputs?: Record<string, string | ArrayBuffer> }
  | { type: 'result'; ok: false; message: string };

/** workerData of a VU host thread (runner/vu-host.worker.ts, `--vu-threads`). */
export interface HostData {
  /** The script as a classic script (runner/script/bundle.ts), evaluated in each hosted VU's vm context. */
  scriptPath: string;
  /** Its blocking calls were made awaits (runner/script/hosting.ts): the VUs' k6 modules answer them with promises. */
  awaits: boolean;
  /** Where the rewrite inserted text (runner/script/await-edits.ts), to map stack frames back. */
  shifts: ColumnShift[];
  /** Why the blocking calls could not become awaits, for the error a blocking call then raises. */
  refusal?: string;
  /** Where this thread publishes its event-loop lag (runner/metrics/loop-lag.ts publishLoopLag). */
  loopLag: Int32Array;
}

/** Main -> VU host thread: create a VU (answered with its `ready` or `initError`), or a message for one VU. */
export type MainToHost =
  | { type: 'spawn'; data: RealmData }
  | { type: 'toVu'; vu: number; message: MainToRealm };

/** VU host thread -> main: one hosted VU's message (vu 0: the thread's own, e.g. an uncaught error). */
export interface HostToMain {
  /** The VU the message is from; 0 for the thread's own (its sample batches, an error no VU awaited). */
  vu: number;
  message: RealmToMain | SampleBatch;
}
