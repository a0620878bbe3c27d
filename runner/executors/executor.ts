// What an executor is: the contract each executor file fulfils, and the two sides it drives. The main thread's side
// (ScenarioDriver) hands VUs their activations and follows the schedule; the VU thread's side (VuLoop) claims
// iterations through the scenario's shared block. The engine (runner/engine/scenario-run.ts) and the VU
// (runner/vu/activation.ts) supply these and own everything executors share: the start wait, gracefulStop,
// interruption, sample flushing. Executors import no engine or VU code, only these types.
import type { BaseScenarioConfig, FieldReader, ScenarioPart } from './base';
import type { ExecutionTuple } from './segments';

/** A VU as an executor sees it while it belongs to the scenario. */
export interface DrivenVu {
  readonly vuId: number;
  /** Leave the activation after the current iteration. */
  stopNew(): void;
  /** Interrupt the current iteration. */
  interrupt(): void;
}

/** The main thread's means to run one scenario, from its start to its regular end. */
export interface ScenarioDriver {
  /** The scenario's shared block (runner/control-block.ts SC_* words). */
  readonly block: Int32Array;
  /** Epoch ms the scenario started; executors whose schedule starts later (after VU hand-out) move it. */
  startedAt: number;
  /** Tags of this scenario's dropped_iterations samples. */
  readonly droppedTags: Record<string, string>;
  /** Takes VUs for the scenario (returned at its end). `planned`: the plan reserved them. */
  acquire(count: number, planned?: boolean): Promise<DrivenVu[]>;
  /** Starts an activation of `vu` with the executor's VU plan; resolves when it ended. */
  activate(vu: DrivenVu, plan: unknown): Promise<void>;
  isRunning(vu: DrivenVu): boolean;
  /** Resolves when every activation started so far has ended. */
  allEnded(): Promise<unknown>;
  /** Waits `ms`; resolves early with 'aborted' when the run is aborted. */
  delay(ms: number): Promise<'timeout' | 'aborted'>;
  /** A timer cleared when the scenario ends (returns its canceller). */
  at(ms: number, fn: () => void): () => void;
  /** The scenario's first VUs were activated (the run samples `vus` then). */
  started(): void;
  warn(message: string): void;
}

/** A VU thread's means to run the iterations of one activation. */
export interface VuLoop {
  readonly block: Int32Array;
  /** The scenario reached its regular end (or was aborted). */
  scenarioStopped(): boolean;
  /** The scenario stopped or this VU was told to leave. */
  stopped(): boolean;
  /** Runs one iteration; `index` is its number in this scenario on this instance (iterationInInstance). */
  iterate(index: number): unknown;
  /**
   * Waits until epoch ms `due` or the scenario's stop, whichever comes first. On a hosted VU's thread it always
   * yields at least one event-loop turn (a promise), even when `due` has passed.
   */
  waitUntil(due: number): void | Promise<void>;
  /** Epoch ms the VU's last iteration ended (it is free from then on). */
  lastIterationEnd(): number;
  /** One dropped_iterations sample (value 1) with the scenario's dropped tags. */
  dropped(tags: Record<string, string>): void;
  /** How late an arrival start began (bench_iteration_start_lag). */
  startLag(due: number): void;
}

/**
 * One executor: its options, its needs, and how it runs on both sides. `C` is its parsed config, `P` what each
 * activation message carries to the VU (structured-clone safe). Adding an executor is one file exporting one of
 * these plus its entry in the table in ./index.ts.
 */
export interface Executor<C extends BaseScenarioConfig, P> {
  /** Reads the scenario's fields strictly; problems go to the reader. */
  parse(name: string, r: FieldReader): C;
  /**
   * This instance's part of the scenario under execution segments (./segments.ts): the config with its counts scaled
   * to the instance's share, or undefined when the share holds no work (k6 then disables the scenario there).
   */
  segment(c: C, t: ExecutionTuple): C | undefined;
  /** The header's description after "* name: ". */
  describe(c: C): string;
  /** VUs initialised before the run for it. */
  plannedVUs(c: C): number;
  /** Most VUs it may ever use (arrival-rate: maxVUs). */
  maxVUs(c: C): number;
  /** ms from its start to its regular end (no new iterations after it). */
  regularDuration(c: C): number;
  /** Main thread: takes VUs, activates them and follows the schedule until the regular end. */
  run(c: C, s: ScenarioDriver): Promise<void>;
  /**
   * After the scenario ended: the dropped_iterations values of iterations it never started, one sample each
   * (iteration-based executors; `notStarted` holds what each early-ended activation reported).
   */
  unstarted?(c: C, block: Int32Array, notStarted: number[]): number[];
  /**
   * True when `vu` calls `loop.waitUntil` before every iteration (arrival-rate): that wait gives a hosted VU's thread
   * its turn between iterations, so the VU side adds none of its own after each.
   */
  waitsBeforeEachIteration?: true;
  /** VU thread: the iterations of one activation; returns how many of its own it never started. */
  vu(plan: P, loop: VuLoop): Promise<number>;
}

/**
 * The main-thread side of the executors with a fixed set of VUs (constant-vus, shared-iterations, per-vu-iterations):
 * all start at once with the same plan and run until they are done or the regular end comes.
 */
export async function runFixedVus(
  s: ScenarioDriver,
  count: number,
  plan: unknown,
  regular: number,
): Promise<void> {
  const vus = await s.acquire(count, true);
  for (const vu of vus) void s.activate(vu, plan);
  s.started();
  await Promise.race([s.allEnded(), s.delay(regular)]);
}

/** The part every segmented scenario carries: the share and the test-wide numbers of its iterations. */
export function partOf(t: ExecutionTuple, iterations = t): ScenarioPart {
  return { share: t.share, iterations: iterations.stripe() };
}

/** Segments an executor whose only count is its VUs (constant-vus, per-vu-iterations): each VU's work is whole. */
export function segmentVus<C extends BaseScenarioConfig & { vus: number }>(
  c: C,
  t: ExecutionTuple,
): C | undefined {
  const vus = t.scale(c.vus);
  return vus > 0 ? { ...c, vus, part: partOf(t) } : undefined;
}
