// One realm's runtime state and its ModuleHost implementation: tags, metadata, sample batching, pending async
// work (for "iteration ends when the event loop is empty"), interruption and logging.
import { parentPort } from 'node:worker_threads';
import { nowMs, SIGNAL_INTERRUPT, SIGNAL_WAKE } from '../control-block';
import { isEmptyRecord, type SampleInput } from '../metrics/sample';
import { type SampleBatch, SampleBatchEncoder } from '../metrics/sample-batch';
import {
  HostedBlockingError,
  type HttpModuleOptions,
  INTERRUPT_SETUP_TIMEOUT,
  type ModuleHost,
} from '../modules/module-host';
import { threadStarts } from './hosted-starts';
import { IterationInterrupted, SetupInterrupted } from './interruption';
import type { RealmData, RealmToMain, ScenarioInfo } from './wire';

/** Samples older than this are flushed before the realm blocks or between iterations. */
export const FLUSH_AGE_MS = 50;

const NO_METADATA: Record<string, string> = Object.freeze({}) as Record<string, string>;

export type PostToMain = (message: RealmToMain | SampleBatch, transfer?: ArrayBuffer[]) => void;

/** A thread-per-realm worker's way to the main thread. */
export const post: PostToMain = (message, transfer) => {
  parentPort?.postMessage(message, transfer ?? []);
};

/** How a realm lives in its thread. */
export interface RealmPlacement {
  /** Where its messages go (a hosted VU's are tagged with its id). */
  post: PostToMain;
  /** The script's global object (the thread's own, or the VU's vm context's). */
  global: Record<string, unknown>;
  /**
   * True when the VU shares its thread with other VUs (`--vu-threads`, runner/vu-host.worker.ts): it must never block
   * the thread, so sync calls (sleep, http.get, http.batch) throw, async requests are served on this thread
   * (runner/http/local-io.ts) and waits are timers.
   */
  hosted: boolean;
  /** The thread's sample encoder when its VUs share one (hosted VUs: one batch per flush for the whole thread). */
  encoder?: SampleBatchEncoder;
  /** Hosted VUs of a script whose blocking calls were made awaits (runner/script/hosting.ts). */
  awaitsBlocking?: boolean;
  /** Why a hosted script's blocking calls could not become awaits (in the error a blocking call raises). */
  refusal?: string;
}

export class VuRuntime implements ModuleHost {
  readonly vuId: number;
  readonly httpOptions: HttpModuleOptions;
  readonly signal: Int32Array;
  readonly httpPort: RealmData['httpPort'];
  readonly encoder: SampleBatchEncoder;
  readonly post: PostToMain;
  readonly global: Record<string, unknown>;
  readonly hosted: boolean;
  readonly awaitsBlocking: boolean;
  private readonly refusal: string | undefined;
  initContext = true;
  /** "::setup", "::teardown" or "" plus nested group() paths. */
  group = '';
  /** Fixed group for setup/teardown realms (their samples carry it and no scenario tag). */
  baseGroup = '';
  scenario: ScenarioInfo | undefined;
  /** exec.vu.metrics.tags / metadata: reset on each activation. */
  userTags: Record<string, string> = {};
  userMetadata: Record<string, string> = {};
  /** __ITER: this VU's iteration count across scenarios. */
  iteration = -1;
  iterationInScenario = -1;
  iterationInInstance = -1;
  /** exec.scenario.iterationInTest: the iteration's number across all instances of a segmented test. */
  iterationInTest = -1;
  /** Epoch ms when the last iteration ended (padding included): from then on the VU counts as free (k6's rule). */
  lastIterationEnd = 0;
  private sent = 0;
  private received = 0;
  private pending = 0;
  private drained: (() => void) | undefined;
  private interruptListeners = new Set<() => void>();
  private startCallbacks: Array<() => void> = [];
  private endCallbacks: Array<() => void> = [];
  private tagsCache: Readonly<Record<string, string>> | undefined;
  private readonly systemTags: Set<string>;
  private readonly vuTagOn: boolean;
  private readonly iterTagOn: boolean;

  constructor(
    readonly data: RealmData,
    placement: RealmPlacement = { post, global: globalThis as Record<string, unknown>, hosted: false },
  ) {
    this.post = placement.post;
    this.global = placement.global;
    this.hosted = placement.hosted;
    this.awaitsBlocking = placement.awaitsBlocking ?? false;
    this.refusal = placement.refusal;
    this.encoder =
      placement.encoder ?? new SampleBatchEncoder((batch, transfer) => this.post(batch, transfer));
    this.vuId = data.vuId;
    this.httpOptions = data.httpOptions;
    this.signal = data.signal;
    this.httpPort = data.httpPort;
    this.systemTags = new Set(data.systemTags);
    this.vuTagOn = this.systemTags.has('vu');
    this.iterTagOn = this.systemTags.has('iter');
    if (data.mode === 'setup') this.baseGroup = '::setup';
    if (data.mode === 'teardown') this.baseGroup = '::teardown';
    this.group = this.baseGroup;
  }

  inInitContext(): boolean {
    return this.initContext;
  }

  invalidateTags(): void {
    this.tagsCache = undefined;
  }

  /**
   * The VU's current tags, frozen and shared until they change: samples that carry the same object are encoded by
   * identity (runner/metrics/sample-batch.ts) instead of re-keying the tag set for every sample.
   */
  tags(): Readonly<Record<string, string>> {
    if (!this.tagsCache) {
      const t: Record<string, string> = { ...this.data.runTags };
      if (this.scenario) {
        Object.assign(t, this.scenario.tags);
        if (this.systemTags.has('scenario')) t.scenario = this.scenario.name;
      }
      if (this.systemTags.has('group')) t.group = this.group;
      Object.assign(t, this.userTags);
      this.tagsCache = Object.freeze(t);
    }
    return this.tagsCache;
  }

  /** Sample metadata (exec.vu.metrics.metadata, and the vu/iter system tags when enabled); do not mutate. */
  metadata(): Record<string, string> {
    const vu = this.vuId > 0 && this.vuTagOn;
    const iter = this.iteration >= 0 && this.iterTagOn;
    if (!vu && !iter && isEmptyRecord(this.userMetadata)) return NO_METADATA;
    const m: Record<string, string> = { ...this.userMetadata };
    if (vu) m.vu = String(this.vuId);
    if (iter) m.iter = String(this.iteration);
    return m;
  }

  emit(samples: SampleInput[]): void {
    this.encoder.addAll(samples);
  }

  countData(sentBytes: number, receivedBytes: number): void {
    this.sent += sentBytes;
    this.received += receivedBytes;
  }

  /** Takes the data counted since the last call. */
  takeData(): [number, number] {
    const out: [number, number] = [this.sent, this.received];
    this.sent = 0;
    this.received = 0;
    return out;
  }

  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, string>): void {
    this.post({ type: 'log', level, message, fields });
  }

  interrupted(): boolean {
    return Atomics.load(this.signal, SIGNAL_INTERRUPT) !== 0;
  }

  throwIfInterrupted(): void {
    if (!this.interrupted()) return;
    // setup() is interrupted once, so that the calls in its catch or finally blocks (deleting what it made) run.
    if (this.data.mode === 'setup') {
      const why = Atomics.exchange(this.signal, SIGNAL_INTERRUPT, 0);
      throw new SetupInterrupted(why === INTERRUPT_SETUP_TIMEOUT);
    }
    throw new IterationInterrupted();
  }

  /** Called when the main thread asks (by message) to interrupt async work. */
  fireInterrupt(): void {
    for (const l of [...this.interruptListeners]) l();
  }

  onInterrupt(listener: () => void): () => void {
    this.interruptListeners.add(listener);
    return () => this.interruptListeners.delete(listener);
  }

  /** The error a blocking call raises on a thread other VUs share. */
  blockingError(call: string): HostedBlockingError {
    return new HostedBlockingError(call, this.refusal);
  }

  /**
   * Waits `ms` without blocking the thread (hosted VUs): precisely, on the thread's start clock. An interruption leaves
   * the promise pending for good, so the interrupted iteration's code never resumes (the iteration ends without it).
   */
  waitFor(ms: number): Promise<void> {
    const never = new Promise<void>(() => {});
    if (this.interrupted()) return never;
    return new Promise<void>((resolve) => {
      let interrupted = false;
      const off = this.onInterrupt(() => {
        interrupted = true;
      });
      void threadStarts()
        .wait(nowMs() + ms)
        .then(() => {
          off();
          if (!interrupted) resolve();
        });
    });
  }

  /** Blocks this thread for up to `ms`, waking early on interruption (then throws). */
  blockFor(ms: number): void {
    if (this.hosted) throw this.blockingError('sleep()');
    // A long block would hold buffered samples back: send them first; short blocks only flush old ones.
    this.flushIfStale(ms > FLUSH_AGE_MS ? 0 : FLUSH_AGE_MS);
    const deadline = performance.now() + ms;
    for (;;) {
      Atomics.store(this.signal, SIGNAL_WAKE, 0);
      this.throwIfInterrupted();
      const left = deadline - performance.now();
      if (left <= 0) return;
      Atomics.wait(this.signal, SIGNAL_WAKE, 0, left);
    }
  }

  track<T>(promise: Promise<T>): Promise<T> {
    this.pending++;
    const done = () => {
      this.pending--;
      if (this.pending === 0 && this.drained) {
        const d = this.drained;
        this.drained = undefined;
        d();
      }
    };
    promise.then(done, done);
    return promise;
  }

  /** Counts a pending timer as event-loop work (k6/timers); call the returned function when it is gone. */
  holdLoop(): () => void {
    this.pending++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.pending--;
      if (this.pending === 0 && this.drained) {
        const d = this.drained;
        this.drained = undefined;
        d();
      }
    };
  }

  get pendingWork(): number {
    return this.pending;
  }

  /** Resolves when no tracked promise or timer is pending. */
  whenDrained(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.drained = resolve;
    });
  }

  /** Forgets pending work after an interruption (its callbacks may still run but no longer hold the iteration). */
  resetPending(): void {
    this.pending = 0;
    this.drained = undefined;
  }

  onIterationStart(callback: () => void): void {
    this.startCallbacks.push(callback);
  }

  onIterationEnd(callback: () => void): void {
    this.endCallbacks.push(callback);
  }

  iterationStarted(): void {
    for (const cb of this.startCallbacks) cb();
  }

  iterationEnded(): void {
    for (const cb of this.endCallbacks) cb();
  }

  flushIfStale(maxAge = FLUSH_AGE_MS): void {
    if (this.encoder.size > 0 && performance.now() - this.encoder.oldest >= maxAge) this.encoder.flush();
  }
}
