// Worker thread of the vector engine: holds its own kernel instances on the shared segment memories and runs
// search tasks or index jobs posted by worker-pool.ts, one at a time, replying with plain results.
import { parentPort, workerData } from 'node:worker_threads';
import { osThreadId } from '../process/thread-cpu';
import { runTask } from './executor';
import { runIndexJob } from './index-build';
import { quantizeRows } from './quantize';
import { setBackgroundYield, waitForSearches } from './search-priority';
import { type SegmentRuntime, SegmentTable } from './segment-runtime';
import type { IndexResult, TaskResult } from './tasks';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol';

const { slot, searches } = workerData as WorkerInit;
const searchCount = searches ? new Int32Array(searches) : null;
// Background work on this thread (index builds, fresh-row quantising, prefaulting) gives way to searches.
setBackgroundYield(() => waitForSearches(searchCount));
const segments = new SegmentTable();
const lookup = (seg: number): SegmentRuntime => segments.get(seg);

function reply(message: FromWorker): void {
  parentPort?.postMessage(message);
}

reply({ type: 'thread', tid: osThreadId() });

parentPort?.on('message', (message: ToWorker) => {
  switch (message.type) {
    case 'segment':
      segments.add(message.id, message.memory, message.layout);
      return;
    case 'drop':
      segments.drop(message.id);
      return;
    case 'prefault': {
      // An atomic add of 0 commits the page without changing a value the request thread may be writing.
      const rt = segments.find(message.id);
      if (!rt) return;
      for (let at = message.from & ~4095; at < message.to; at += 4096) {
        // First touch is slow (docs/engine-measurements.md §0): give way to searches every MB.
        if ((at & 0xfffff) === 0) waitForSearches(searchCount);
        Atomics.add(rt.u32, at >>> 2, 0);
      }
      return;
    }
    case 'run':
      try {
        const { task } = message;
        let result: TaskResult | IndexResult | null = null;
        if (task.kind === 'index') result = runIndexJob(task, lookup, slot);
        else if (task.kind === 'quantize') quantizeRows(lookup(task.seg), task.metric, task.from, task.to);
        else result = runTask(task, lookup, slot);
        reply({ type: 'done', job: message.job, result });
      } catch (error) {
        reply({
          type: 'failed',
          job: message.job,
          message: error instanceof Error ? error.message : String(error),
        });
      }
      return;
    default: {
      const unknown: never = message;
      throw new Error(`vector engine worker: unknown message ${JSON.stringify(unknown)}`);
    }
  }
});
