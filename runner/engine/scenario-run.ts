// Runs one scenario on the main thread: waits for its startTime, hands VUs their activation, follows the
// executor's schedule (pure functions in executors/), and ends it: regular end -> gracefulStop -> interruption.
import {
  IN_VUS_ACTIVE,
  newInt32Block,
  nowMs,
  SC_BUSY,
  SC_COMPLETED,
  SC_DROPPED,
  SC_INTERRUPTED,
  SC_NEXT_ITER,
  SC_PENDING,
  SC_STOP,
  SC_VUS,
  SCENARIO_WORDS,
} from '../control-block';
import type { ScenarioConfig } from '../executors/index';
import { isArrivalRate, regularDuration } from '../executors/index';
import { rampingVusChanges } from '../executors/ramping-vus-schedule';
import type { ActivationMode, ScenarioInfo } from '../vu/wire';
import type { VuHandle } from './realm-handle';
import type { VuPool } from './vu-pool';

export type ScenarioState = 'waiting' | 'running' | 'stopping' | 'done' | 'interrupted';

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

  clear(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

class Activations {
  private readonly running = new Map<VuHandle, Promise<number>>();
  /** Per activation that ended early: iterations it never started (per-vu-iterations). */
  readonly notStarted: number[] = [];

  constructor(
    private readonly env: ScenarioEnv,
    private readonly progress: ScenarioProgress,
    private readonly info: ScenarioInfo,
  ) {}

  start(vu: VuHandle, mode: ActivationMode): Promise<number> {
    Atomics.add(this.env.instance, IN_VUS_ACTIVE, 1);
    this.progress.vus++;
    const p = vu
      .activate({ scenario: this.info, block: this.progress.block, mode, setupData: this.env.setupData })
      .catch(() => 0)
      .then((n) => {
        if (n > 0) this.notStarted.push(n);
        this.running.delete(vu);
        Atomics.sub(this.env.instance, IN_VUS_ACTIVE, 1);
        this.progress.vus--;
        return n;
      });
    this.running.set(vu, p);
    return p;
  }

  isRunning(vu: VuHandle): boolean {
    return this.running.has(vu);
  }

  get size(): number {
    return this.running.size;
  }

  all(): Promise<unknown> {
    return Promise.all([...this.running.values()]);
  }

  /** Interrupts what still runs; terminates threads that do not come back in time. */
  async interruptAll(): Promise<boolean> {
    if (this.running.size === 0) return false;
    for (const vu of this.running.keys()) vu.interrupt();
    const stuck = [...this.running.keys()];
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      this.all().then(() => 'done' as const),
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
}

/** Runs the scenario to its end. */
export async function runScenario(
  config: ScenarioConfig,
  progress: ScenarioProgress,
  env: ScenarioEnv,
): Promise<void> {
  const clock = new Clock(env.aborted);
  const delay = (ms: number) => clock.delay(ms);
  const startAt = env.testStart + config.startTime;
  if ((await delay(startAt - nowMs())) === 'aborted') {
    progress.state = 'interrupted';
    return;
  }
  progress.startedAt = nowMs();
  progress.state = 'running';
  const info: ScenarioInfo = {
    name: config.name,
    executor: config.executor,
    exec: config.exec,
    env: config.env,
    tags: config.tags,
    startTime: progress.startedAt,
    duration: regularDuration(config),
  };
  const acts = new Activations(env, progress, info);
  const block = progress.block;
  const stop = () => {
    Atomics.store(block, SC_STOP, 1);
    Atomics.notify(block, SC_STOP);
  };
  let vus: VuHandle[] = [];
  let growTimer: NodeJS.Timeout | undefined;
  let rampTimers: NodeJS.Timeout[] = [];
  try {
    switch (config.executor) {
      case 'constant-vus':
      case 'shared-iterations':
      case 'per-vu-iterations': {
        vus = await env.pool.acquire(config.vus, true);
        const mode: ActivationMode =
          config.executor === 'constant-vus'
            ? { kind: 'loop' }
            : config.executor === 'shared-iterations'
              ? { kind: 'shared', iterations: config.iterations }
              : { kind: 'per-vu', iterations: config.iterations };
        for (const vu of vus) acts.start(vu, mode);
        env.onStarted();
        const regular = regularDuration(config);
        await Promise.race([acts.all(), delay(regular)]);
        break;
      }
      case 'ramping-vus': {
        const max = Math.max(config.startVUs, ...config.stages.map((s) => s.target));
        vus = await env.pool.acquire(max, true);
        const leaving = new Map<VuHandle, NodeJS.Timeout>();
        let target = 0;
        let ended = false;
        // Moves the active VU count to `count`: extra VUs finish their iteration (gracefulRampDown, then they are
        // interrupted); missing ones are taken from VUs that are not running. A VU still finishing a ramp-down
        // cannot be taken back, so every VU that leaves tops the count up again.
        const setCount = (count: number) => {
          target = count;
          if (ended) return;
          const active = vus.filter((v) => acts.isRunning(v) && !leaving.has(v));
          for (const vu of active.slice(count)) {
            vu.stopNew();
            leaving.set(
              vu,
              setTimeout(() => {
                if (acts.isRunning(vu)) vu.interrupt();
              }, config.gracefulRampDown),
            );
          }
          let need = count - Math.min(active.length, count);
          for (const vu of vus) {
            if (need <= 0) break;
            if (!acts.isRunning(vu)) {
              const t = leaving.get(vu);
              if (t) clearTimeout(t);
              leaving.delete(vu);
              acts.start(vu, { kind: 'loop' }).then(() => setCount(target));
              need--;
            }
          }
        };
        rampTimers = rampingVusChanges(config.startVUs, config.stages).map((c) =>
          setTimeout(() => setCount(c.vus), Math.max(0, progress.startedAt + c.at - nowMs())),
        );
        setTimeout(() => env.onStarted(), 1);
        await delay(regularDuration(config));
        ended = true;
        for (const t of rampTimers) clearTimeout(t);
        for (const t of leaving.values()) clearTimeout(t);
        break;
      }
      case 'constant-arrival-rate':
      case 'ramping-arrival-rate': {
        vus = await env.pool.acquire(config.preAllocatedVUs, true);
        Atomics.store(block, SC_VUS, vus.length);
        const start = nowMs();
        progress.startedAt = start;
        info.startTime = start;
        const droppedTags = env.droppedTags(config.name);
        const mode = (freeSince: number): ActivationMode => ({
          kind: 'arrival',
          schedule: config,
          start,
          freeSince,
          maxVUs: config.maxVUs,
          droppedTags,
        });
        // Pre-allocated VUs count as free from the schedule start, even if their activation message lands later.
        for (const vu of vus) acts.start(vu, mode(start));
        env.onStarted();
        // VUs ask for more VUs (up to maxVUs) by raising PENDING when they drop a start; initialise them here.
        let inFlight = 0;
        let maxWarned = false;
        growTimer = setInterval(() => {
          const pending = Atomics.load(block, SC_PENDING);
          for (; inFlight < pending; inFlight++) {
            env.pool
              .acquire(1)
              .then(([vu]) => {
                if (Atomics.load(block, SC_STOP) !== 0) return env.pool.release([vu]);
                vus.push(vu);
                Atomics.add(block, SC_VUS, 1);
                acts.start(vu, mode(nowMs()));
              })
              .catch((e: Error) => env.warn(`could not initialize an extra VU: ${e.message}`))
              .finally(() => {
                inFlight--;
                Atomics.sub(block, SC_PENDING, 1);
              });
          }
          if (
            !maxWarned &&
            Atomics.load(block, SC_DROPPED) > 0 &&
            Atomics.load(block, SC_VUS) >= config.maxVUs
          ) {
            maxWarned = true;
            env.warn(`Insufficient VUs, reached ${config.maxVUs} active VUs and cannot initialize more`);
          }
        }, 50);
        await delay(regularDuration(config));
        break;
      }
    }
    // Regular end: no new iterations; in-flight ones get gracefulStop (nothing on abort).
    stop();
    if (!env.isAborted() && acts.size > 0) {
      progress.state = 'stopping';
      await Promise.race([acts.all(), delay(config.gracefulStop)]);
    }
    const interrupted = await acts.interruptAll();
    await acts.all();
    progress.state = interrupted || env.isAborted() ? 'interrupted' : 'done';
    if (config.executor === 'shared-iterations') {
      const started = Math.min(Atomics.load(block, SC_NEXT_ITER), config.iterations);
      if (started < config.iterations) {
        progress.state = 'interrupted';
        env.emitDropped(config.name, [config.iterations - started], nowMs());
      }
    }
    if (config.executor === 'per-vu-iterations' && acts.notStarted.length > 0) {
      progress.state = 'interrupted';
      env.emitDropped(config.name, acts.notStarted, nowMs());
    }
  } finally {
    stop();
    clock.clear();
    for (const t of rampTimers) clearTimeout(t);
    if (growTimer) clearInterval(growTimer);
    env.pool.release(vus);
  }
}

export function newProgress(config: ScenarioConfig): ScenarioProgress {
  return { config, state: 'waiting', startedAt: 0, block: newInt32Block(SCENARIO_WORDS), vus: 0 };
}

export { isArrivalRate, SC_BUSY, SC_COMPLETED, SC_INTERRUPTED };
