// The vector engine's entry: create a column, measure recall. Everything else in emulator/vector/ is internal.
import { SegmentedColumn } from './column';
import { type Executor, InThreadExecutor } from './executor';
import type { DistanceMetric, VectorColumn } from './types';
import { sharedWorkerPool, WorkerPoolExecutor, workersAvailable } from './worker-pool';

export { measureRecall, type RecallOptions, type RecallReport } from './recall';
export type { DistanceMetric, Hit, RowBitset, SearchOptions, SearchStats, VectorColumn } from './types';

export interface VectorColumnOptions {
  dims: number;
  metric: DistanceMetric;
  /**
   * Where scans and index builds run. 'in-thread': synchronously on the calling thread (deterministic; tests).
   * @default 'in-thread'
   */
  threads?: 'in-thread' | Executor;
}

export function createVectorColumn(options: VectorColumnOptions): VectorColumn {
  const executor =
    options.threads === undefined || options.threads === 'in-thread'
      ? new InThreadExecutor()
      : options.threads;
  return new SegmentedColumn({ dims: options.dims, metric: options.metric, executor });
}
