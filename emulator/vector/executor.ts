// Where tasks run. The column talks to this interface only: the in-thread executor here (tests, tiny columns, a
// process without dist/ workers) and the worker pool (worker-pool.ts) behave the same, the pool just in parallel.

import { runAnn } from './ann-scan';
import { runExact } from './exact-scan';
import { runIndexJob } from './index-build';
import type { SegmentLayout } from './layout';
import { quantizeRows } from './quantize';
import { type SegmentRuntime, SegmentTable } from './segment-runtime';
import type { AnnTask, ExactTask, IndexJob, IndexResult, QuantizeJob, TaskResult } from './tasks';

export type SearchTask = ExactTask | AnnTask;

export interface Executor {
  /** Scratch slots every segment must reserve: one per thread that may run tasks. Slot 0 is the calling thread. */
  readonly slots: number;
  /** Tasks of one search that run at the same time. */
  readonly parallelism: number;
  /** How many pieces to cut a large search into (at least parallelism). */
  readonly pieces: number;
  /** Makes a segment known to every thread; returns its id. */
  addSegment(memory: WebAssembly.Memory, layout: SegmentLayout): number;
  /** This thread's runtime for a segment (appends, get, small searches). */
  runtime(seg: number): SegmentRuntime;
  dropSegment(seg: number): void;
  /** Asks a background thread to commit the pages of bytes [from, to) of a segment (a hint; may do nothing). */
  prefault(seg: number, from: number, to: number): void;
  /** Quantises freshly appended rows off the request thread where the executor can; resolves when written. */
  quantize(job: QuantizeJob): Promise<void>;
  /** Runs the tasks of one search, in parallel where the executor can. */
  run(tasks: SearchTask[]): Promise<TaskResult[]>;
  /** Runs one small task right here on slot 0. */
  runHere(task: SearchTask): TaskResult;
  /** Runs index work off the request thread where the executor can. */
  index(job: IndexJob): Promise<IndexResult>;
  /** A column stopped using this executor. */
  release(): Promise<void>;
}

export function runTask(task: SearchTask, lookup: (seg: number) => SegmentRuntime, slot: number): TaskResult {
  return task.kind === 'exact' ? runExact(task, lookup, slot) : runAnn(task, lookup, slot);
}

/** Everything on the calling thread, synchronously (wrapped in promises to keep the interface). */
export class InThreadExecutor implements Executor {
  readonly slots = 1;
  readonly parallelism = 1;
  readonly pieces = 1;
  private readonly segments = new SegmentTable();
  private nextId = 1;

  addSegment(memory: WebAssembly.Memory, layout: SegmentLayout): number {
    const id = this.nextId++;
    this.segments.add(id, memory, layout);
    return id;
  }

  runtime(seg: number): SegmentRuntime {
    return this.segments.get(seg);
  }

  dropSegment(seg: number): void {
    this.segments.drop(seg);
  }

  /** There is no background thread here: appends fault their pages in themselves. */
  prefault(): void {}

  async quantize(job: QuantizeJob): Promise<void> {
    quantizeRows(this.runtime(job.seg), job.metric, job.from, job.to);
  }

  async run(tasks: SearchTask[]): Promise<TaskResult[]> {
    return tasks.map((t) => this.runHere(t));
  }

  runHere(task: SearchTask): TaskResult {
    return runTask(task, (seg) => this.runtime(seg), 0);
  }

  async index(job: IndexJob): Promise<IndexResult> {
    return runIndexJob(job, (seg) => this.runtime(seg), 0);
  }

  async release(): Promise<void> {}
}
