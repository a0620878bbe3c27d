// The vector engine's entry: create a column, measure recall. Everything else in emulator/vector/ is internal.
import { SegmentedColumn } from './column';
import { type Executor, InThreadExecutor } from './executor';
import type { DistanceMetric, VectorColumn } from './types';
import { sharedWorkerPool, WorkerPoolExecutor, workersAvailable } from './worker-pool';

export { measureRecall } from './recall';
export type { VectorColumn } from './types';

export { searchesActive, searchesIdle } from './worker-pool';
export { WorkerPoolExecutor };

export interface VectorColumnOptions {
  dims: number;
  metric: DistanceMetric;
  /**
   * Where scans and index builds run:
   * - 'workers': the process-wide worker pool (scan workers + an index worker), shared by all columns and
   *   stopped when the last of them is closed;
   * - 'in-thread': synchronously on the calling thread (deterministic; unit tests);
   * - 'auto': 'workers' when the bundled worker entry exists (running from dist/), else 'in-thread';
   * - a WorkerPoolExecutor of your own (tests, benchmarks); you close it.
   * @default 'auto'
   */
  threads?: 'auto' | 'workers' | 'in-thread' | Executor;
}

function executorFor(threads: VectorColumnOptions['threads'] = 'auto'): Executor {
  if (typeof threads === 'object') return threads;
  if (threads === 'workers' || (threads === 'auto' && workersAvailable())) return sharedWorkerPool();
  return new InThreadExecutor();
}

export function createVectorColumn(options: VectorColumnOptions): VectorColumn {
  return new SegmentedColumn({
    dims: options.dims,
    metric: options.metric,
    executor: executorFor(options.threads),
  });
}
