// Messages between the request thread and the engine's worker threads (vector-engine.worker.ts).
import type { SearchTask } from './executor';
import type { SegmentLayout } from './layout';
import type { IndexJob, IndexResult, QuantizeJob, TaskResult } from './tasks';

/** workerData of every engine worker: its scratch slot in each segment, and the pool's search count. */
export interface WorkerInit {
  slot: number;
  /** SearchSignal.buffer: the count of search tasks in flight, which background work gives way to. */
  searches?: SharedArrayBuffer;
}

export type ToWorker =
  | { type: 'segment'; id: number; memory: WebAssembly.Memory; layout: SegmentLayout }
  | { type: 'drop'; id: number }
  /** Commit the pages of bytes [from, to) of a segment (no reply). */
  | { type: 'prefault'; id: number; from: number; to: number }
  | { type: 'run'; job: number; task: SearchTask | IndexJob | QuantizeJob };

export type FromWorker =
  /** Sent once at start: the worker's kernel thread id (null off Linux), for per-thread CPU figures. */
  | { type: 'thread'; tid: number | null }
  | { type: 'done'; job: number; result: TaskResult | IndexResult | null }
  | { type: 'failed'; job: number; message: string };
