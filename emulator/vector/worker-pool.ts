// The executor that runs searches on scan workers in parallel and index jobs on a dedicated index worker, all
// sharing the segments' memories with the request thread (no copies). Slots: 0 = request thread, 1..W = scan
// workers, W + 1 = index worker; a last worker commits segment pages ahead of appends and quantises fresh rows. Idle workers are
// unref'd so they never keep the process alive.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../../core/worker-url';
import { lowerThreadPriority } from '../process/thread-cpu';
import { type Executor, runTask, type SearchTask } from './executor';
import type { SegmentLayout } from './layout';
import { SearchSignal } from './search-priority';
import { type SegmentRuntime, SegmentTable } from './segment-runtime';
import type { IndexJob, IndexResult, QuantizeJob, TaskResult } from './tasks';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol';

interface QueuedTask {
  task: SearchTask;
  resolve: (result: TaskResult) => void;
  reject: (error: Error) => void;
}

interface Pending {
  resolve: (value: TaskResult | IndexResult | null) => void;
  reject: (error: Error) => void;
}

/**
 * The nice value of the threads that do background work (index builds, page commits, fresh-row quantising): the
 * lowest priority, so on a small machine the kernel gives the CPU to the request thread and the scan workers first
 * and to the background only what they leave (CFS weight 15 against 1024: about 1.5 % of a contended core), as
 * the service runs indexing on other machines than queries. Searches also go first within the engine
 * (search-priority.ts); this covers the CPU the background takes between its yields and from the load generator.
 */
export const BACKGROUND_NICE = 19;

/** One worker thread and the jobs it still owes an answer for. */
class EngineWorker {
  /** The thread's kernel id once it has said it (null until then, and off Linux). */
  tid: number | null = null;
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | undefined;

  /** `nice`: lower the thread to this nice value once it has said its kernel id (null: keep the process's). */
  constructor(
    url: URL,
    slot: number,
    searches: SharedArrayBuffer,
    private readonly nice: number | null = null,
  ) {
    const init: WorkerInit = { slot, searches };
    this.worker = new Worker(url, { workerData: init });
    this.worker.unref();
    this.worker.on('message', (m: FromWorker) => this.settle(m));
    this.worker.on('error', (e) => this.fail(e));
    this.worker.on('exit', (code) => this.fail(new Error(`vector engine worker exited with code ${code}`)));
  }

  post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  run(job: number, task: SearchTask | IndexJob | QuantizeJob): Promise<TaskResult | IndexResult | null> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(job, { resolve, reject });
      this.post({ type: 'run', job, task });
    });
  }

  terminate(): Promise<number> {
    this.failure ??= new Error('vector engine: worker pool closed');
    return this.worker.terminate();
  }

  private settle(m: FromWorker): void {
    if (m.type === 'thread') {
      this.tid = m.tid;
      if (m.tid !== null && this.nice !== null) lowerThreadPriority(m.tid, this.nice);
      return;
    }
    const p = this.pending.get(m.job);
    if (!p) return;
    this.pending.delete(m.job);
    if (this.pending.size === 0) this.worker.unref();
    if (m.type === 'done') p.resolve(m.result);
    else p.reject(new Error(`vector engine worker: ${m.message}`));
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
  }
}

export interface EngineThread {
  /** scan_1..scan_W (searches), indexer (index builds), prefault (page commits and fresh-row quantising). */
  role: string;
  tid: number | null;
}

export interface WorkerPoolOptions {
  /** Scan workers. @default min(availableParallelism(), 8) */
  workers?: number;
  /** The bundled worker entry. @default dist/vector-engine.worker.js beside the running bundle */
  workerUrl?: URL;
  /**
   * Pieces a large search is cut into per scan worker. More pieces even out workers that run at different speeds,
   * at the cost of more round trips and of a k-th-best bound that each piece builds up on its own.
   * @default 1
   */
  piecesPerWorker?: number;
}

export class WorkerPoolExecutor implements Executor {
  readonly slots: number;
  readonly parallelism: number;
  readonly pieces: number;
  /** Search tasks queued or running: background work (here and on the main thread) gives way while non-zero. */
  readonly searches = new SearchSignal();
  private readonly scan: EngineWorker[];
  private readonly indexer: EngineWorker;
  /** Commits segment pages ahead of appends; never runs tasks, so it needs no slot. */
  private readonly prefaulter: EngineWorker;
  private readonly segments = new SegmentTable();
  private nextSegment = 1;
  private nextJob = 1;
  /** Search tasks waiting for a scan worker, oldest first (all searches share one queue: fair and balanced). */
  private readonly queue: QueuedTask[] = [];
  private readonly idle: EngineWorker[];
  private users = 0;
  private closed = false;

  constructor(options: WorkerPoolOptions = {}) {
    const workers = options.workers ?? Math.min(availableParallelism(), 8);
    if (!Number.isInteger(workers) || workers < 1)
      throw new RangeError(`vector engine: workers must be a positive integer, got ${workers}`);
    const url = options.workerUrl ?? workerUrl('vector-engine.worker');
    this.parallelism = workers;
    this.pieces = workers * (options.piecesPerWorker ?? 1);
    this.slots = workers + 2;
    const signal = this.searches.buffer;
    this.scan = Array.from({ length: workers }, (_, i) => new EngineWorker(url, i + 1, signal));
    this.idle = [...this.scan];
    this.indexer = new EngineWorker(url, workers + 1, signal, BACKGROUND_NICE);
    this.prefaulter = new EngineWorker(url, -1, signal, BACKGROUND_NICE);
  }

  private get all(): EngineWorker[] {
    return [...this.scan, this.indexer, this.prefaulter];
  }

  /** Each worker thread's role and kernel id (null until it has started, and off Linux). */
  threads(): EngineThread[] {
    return [
      ...this.scan.map((w, i) => ({ role: `scan_${i + 1}`, tid: w.tid })),
      { role: 'indexer', tid: this.indexer.tid },
      { role: 'prefault', tid: this.prefaulter.tid },
    ];
  }

  /** Counts a column that uses this pool (see release). */
  acquire(): this {
    this.users++;
    return this;
  }

  addSegment(memory: WebAssembly.Memory, layout: SegmentLayout): number {
    const id = this.nextSegment++;
    this.segments.add(id, memory, layout);
    for (const w of this.all) w.post({ type: 'segment', id, memory, layout });
    return id;
  }

  runtime(seg: number): SegmentRuntime {
    return this.segments.get(seg);
  }

  dropSegment(seg: number): void {
    this.segments.drop(seg);
    if (!this.closed) for (const w of this.all) w.post({ type: 'drop', id: seg });
  }

  prefault(seg: number, from: number, to: number): void {
    if (!this.closed) this.prefaulter.post({ type: 'prefault', id: seg, from, to });
  }

  /** On the prefaulter too: it touches the same fresh rows, in append order. */
  async quantize(job: QuantizeJob): Promise<void> {
    if (this.closed) return;
    await this.prefaulter.run(this.nextJob++, job);
  }

  /**
   * Queues the tasks; each scan worker takes the next one when it finishes its current one, so a worker slowed
   * down by anything else on the machine simply takes fewer pieces of the search.
   */
  run(tasks: SearchTask[]): Promise<TaskResult[]> {
    this.searches.begin(tasks.length);
    const results = tasks.map((task) =>
      new Promise<TaskResult>((resolve, reject) => this.queue.push({ task, resolve, reject })).finally(() =>
        this.searches.end(1),
      ),
    );
    this.pump();
    return Promise.all(results);
  }

  /** Resolves when no search task is queued or running (or after maxWaitMs): write slices wait for it. */
  searchesIdle(maxWaitMs?: number): Promise<void> {
    return this.searches.idle(maxWaitMs);
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as EngineWorker;
      const item = this.queue.shift() as QueuedTask;
      const done = (): void => {
        this.idle.push(worker);
        this.pump();
      };
      (worker.run(this.nextJob++, item.task) as Promise<TaskResult>).then(
        (r) => {
          item.resolve(r);
          done();
        },
        (e: Error) => {
          item.reject(e);
          done();
        },
      );
    }
  }

  runHere(task: SearchTask): TaskResult {
    return runTask(task, (seg) => this.runtime(seg), 0);
  }

  index(job: IndexJob): Promise<IndexResult> {
    return this.indexer.run(this.nextJob++, job) as Promise<IndexResult>;
  }

  /** A column is done with the pool; the last one out stops the shared pool (other pools belong to their creator). */
  async release(): Promise<void> {
    if (this.users === 0) return;
    this.users--;
    if (this.users === 0 && shared === this) await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(this.all.map((w) => w.terminate()));
    if (shared === this) shared = undefined;
  }
}

let shared: WorkerPoolExecutor | undefined;

/** Whether the bundled worker entry exists (it does when running from dist/, not when vitest runs the TS sources). */
export function workersAvailable(): boolean {
  return existsSync(fileURLToPath(workerUrl('vector-engine.worker')));
}

/**
 * Resolves when the process-wide pool runs no search task, or after maxWaitMs; at once when there is no pool. Large
 * writes await it between slices so that queries running beside them keep the CPU.
 */
export function searchesIdle(maxWaitMs?: number): Promise<void> {
  return shared ? shared.searchesIdle(maxWaitMs) : Promise.resolve();
}

/** Whether the process-wide pool has a search task queued or running (false when there is no pool). */
export function searchesActive(): boolean {
  return (shared?.searches.active ?? 0) > 0;
}

/** The threads of the process-wide pool (none when it is not running). */
export function engineThreads(): EngineThread[] {
  return shared?.threads() ?? [];
}

/** The process-wide pool every column shares by default (created on first use, stopped with its last column). */
export function sharedWorkerPool(): WorkerPoolExecutor {
  shared ??= new WorkerPoolExecutor();
  return shared.acquire();
}
