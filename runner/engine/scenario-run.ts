// Runs one scenario on the main thread: waits for its startTime, lets its executor (executors/) drive VUs until the
// regular end, and ends it the way every executor ends: gracefulStop, then interruption, then unstarted iterations.
import { IN_VUS_ACTIVE, newInt32Block, nowMs, SC_STOP, SCENARIO_WORDS } from '../control-block';
import type { DrivenVu, ScenarioDriver } from '../executors/executor';
import { executorOf, type ScenarioConfig } from '../executors/index';
import type { ScenarioInfo } from '../vu/wire';
import type { VuHandle } from './realm-handle';
import type { VuPool } from './vu-pool';

type ScenarioState = 'waiting' | 'running' | 'stopping' | 'done' | 'interrupted';

/** What the progress display and exec facts read while a scenario runs. */
export interface ScenarioProgress {
  config: ScenarioConfig;
  state: ScenarioState;
  /** Epoch ms when it started running. */
  startedAt: number;
  block: Int32Array;
  /** VUs currently handed to the scenario. */
  vus: number;
}

export interface ScenarioEnv {
  pool: VuPool;
  instance: Int32Array;
  testStart: number;
  setupData: string | undefined;
  runTags: Record<string, string>;
  /** Resolves when the run is aborted (test.abort, abortOnFail, signal): stop at once. */
  aborted: Promise<void>;
  isAborted(): boolean;
  /** One dropped_iterations sample per value (arrival-rate: 1 each; iteration-based: the not-started count). */
  emitDropped(scenario: string, values: number[], time: number): void;
  /** Tags of dropped_iterations samples: run tags + scenario. */
  droppedTags(scenario: string): Record<string, string>;
  /** Called once the scenario's first VUs were activated (the run samples `vus` then). */
  onStarted(): void;
  warn(message: string): void;
}

/** Extra time an interrupted VU gets to come back before its thread is terminated (a CPU-bound loop). */
const INTERRUPT_GRACE_MS = 2000;

/** Timers of this scenario run, all cleared when it ends (a pending maxDuration timer must not keep the process). */
class Clock {
  private timers = new Set<NodeJS.Timeout>();

  constructor(private readonly abort: Promise<void>) {}

  delay(ms: number): Promise<'timeout' | 'aborted'> {
    if (ms <= 0) return Promise.resolve('timeout');
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve('timeout');
      }, ms);
      this.timers.add(t);
      this.abort.then(() => {
        clearTimeout(t);
        this.timers.delete(t);
        resolve('aborted');
      });
    });
  }

  at(ms: number, fn: () => void): () => void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return () => {
      clearTimeout(t);
      this.timers.delete(t);
    };
  }

  clear(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** The scenario's activations and VUs, as its executor drives them (executors/executor.ts ScenarioDriver). */
class Driver implements ScenarioDriver {
  private readonly running = new Map<DrivenVu, Promise<void>>();
  /** Every VU handed to the scenario, returned to the pool when it ends. */
  private readonly held: VuHandle[] = [];
  private ended = false;
  /** Per activation that ended early: iterations it never started (per-vu-iterations). */
  readonly notStarted: number[] = [];
  readonly block: Int32Array;
  readonly droppedTags: Record<string, string>;

  constructor(
    private readonly env: ScenarioEnv,
    private readonly progress: ScenarioProgress,
    private readonly info: Omit<ScenarioInfo, 'startTime'>,
    private readonly clock: Clock,
  ) {
    this.block = progress.block;
    this.droppedTags = env.droppedTags(info.name);
  }

  get startedAt(): number {
    return this.progress.startedAt;
  }

  set startedAt(at: number) {
    this.progress.startedAt = at;
  }

  async acquire(count: number, planned = false): Promise<DrivenVu[]> {
    const vus = await this.env.pool.acquire(count, planned);
    // VUs that arrive after the scenario ended (arrival-rate growth) go straight back.
    if (this.ended) {
      this.env.pool.release(vus);
      return [];
    }
    this.held.push(...vus);
    return vus;
  }

  activate(vu: DrivenVu, plan: unknown): Promise<void> {
    Atomics.add(this.env.instance, IN_VUS_ACTIVE, 1);
    this.progress.vus++;
    const p = (vu as VuHandle)
      .activate({
        scenario: { ...this.info, startTime: this.progress.startedAt },
        block: this.block,
        plan,
        setupData: this.env.setupData,
      })
      .catch(() => 0)
      .then((n) => {
        if (n > 0) this.notStarted.push(n);
        this.running.delete(vu);
        Atomics.sub(this.env.instance, IN_VUS_ACTIVE, 1);
        this.progress.vus--;
      });
    this.running.set(vu, p);
    return p;
  }

  isRunning(vu: DrivenVu): boolean {
    return this.running.has(vu);
  }

  get size(): number {
    return this.running.size;
  }

  allEnded(): Promise<unknown> {
    return Promise.all([...this.running.values()]);
  }

  delay(ms: number): Promise<'timeout' | 'aborted'> {
    return this.clock.delay(ms);
  }

  at(ms: number, fn: () => void): () => void {
    return this.clock.at(ms, fn);
  }

  started(): void {
    this.env.onStarted();
  }

  warn(message: string): void {
    this.env.warn(message);
  }

  /** Interrupts what still runs; terminates threads that do not come back in time. */
  async interruptAll(): Promise<boolean> {
    if (this.running.size === 0) return false;
    for (const vu of this.running.keys()) vu.interrupt();
    const stuck = [...this.running.keys()] as VuHandle[];
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      this.allEnded().then(() => 'done' as const),
      new Promise<'late'>((r) => {
        timer = setTimeout(() => r('late'), INTERRUPT_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    if (outcome === 'late') {
      for (const vu of stuck) {
        if (this.running.has(vu)) {
          this.env.warn(
            `VU #${vu.vuId} did not stop after interruption (a busy loop?): terminating its thread`,
          );
          await vu.terminate();
        }
      }
    }
    return true;
  }

  /** Returns every VU to the pool. */
  release(): void {
    this.ended = true;
    this.env.pool.release(this.held);
  }
}

/** Runs the scenario to its end: start wait, the executor's run, regular end -> gracefulStop -> interruption. */
export async function runScenario(
  config: ScenarioConfig,
  progress: ScenarioProgress,
  env: ScenarioEnv,
): Promise<void> {
  const clock = new Clock(env.aborted);
  const startAt = env.testStart + config.startTime;
  if ((await clock.delay(startAt - nowMs())) === 'aborted') {
    progress.state = 'interrupted';
    return;
  }
  progress.startedAt = nowMs();
  progress.state = 'running';
  const executor = executorOf(config);
  const driver = new Driver(
    env,
    progress,
    {
      name: config.name,
      executor: config.executor,
      exec: config.exec,
      env: config.env,
      tags: config.tags,
      browserType: config.browserType,
      duration: executor.regularDuration(config),
      iterations: config.part?.iterations,
    },
    clock,
  );
  const block = progress.block;
  const stop = () => {
    Atomics.store(block, SC_STOP, 1);
    Atomics.notify(block, SC_STOP);
  };
  try {
    await executor.run(config, driver);
    // Regular end: no new iterations; in-flight ones get gracefulStop (nothing on abort). The executor's timers
    // end here, the gracefulStop wait gets its own.
    stop();
    clock.clear();
    if (!env.isAborted() && driver.size > 0) {
      progress.state = 'stopping';
      await Promise.race([driver.allEnded(), clock.delay(config.gracefulStop)]);
    }
    const interrupted = await driver.interruptAll();
    await driver.allEnded();
    progress.state = interrupted || env.isAborted() ? 'interrupted' : 'done';
    const unstarted = executor.unstarted?.(config, block, driver.notStarted) ?? [];
    if (unstarted.length > 0) {
      progress.state = 'interrupted';
      env.emitDropped(config.name, unstarted, nowMs());
    }
  } finally {
    stop();
    clock.clear();
    driver.release();
  }
}

export function newProgress(config: ScenarioConfig): ScenarioProgress {
  return { config, state: 'waiting', startedAt: 0, block: newInt32Block(SCENARIO_WORDS), vus: 0 };
}
