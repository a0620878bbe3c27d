// The HTTP I/O worker threads of one run, started on the main thread: each VU gets a MessagePort to one of them
// (connectVu) and its k6/http module sends every request through it, so a VU blocked in a sync call costs no I/O
// thread and socket timings are taken on a thread that only does I/O.
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { takePublishedLag } from '../metrics/loop-lag';
import { workerUrl } from '../worker-url';
import type { IoControlMessage, IoStatusMessage, IoWorkerData } from './wire';

export interface HttpIoPoolOptions {
  /**
   * I/O worker threads; VUs are spread over them round-robin by id.
   * @default 1 (one thread keeps up with the 2-core target; see scripts/bench-http-client.ts)
   */
  workers?: number;
  /** Where the worker bundle is; tests running TypeScript sources point it at dist/http-io.worker.js. */
  workerFile?: URL;
}

export class HttpIoPool {
  private closed = false;

  private constructor(
    private readonly workers: Worker[],
    private readonly loopLag: Int32Array,
  ) {}

  static async start(options: HttpIoPoolOptions = {}): Promise<HttpIoPool> {
    const count = options.workers ?? 1;
    if (!Number.isInteger(count) || count < 1) {
      throw new Error(`HttpIoPool: workers must be a positive integer, got ${count}`);
    }
    const file = options.workerFile ?? workerUrl('http-io.worker');
    const loopLag = new Int32Array(new SharedArrayBuffer(4 * count));
    const workers = await Promise.all(
      Array.from({ length: count }, (_, index) => startWorker(file, { loopLag, index })),
    );
    return new HttpIoPool(workers, loopLag);
  }

  /**
   * Each worker's largest event-loop delay (ms) since the previous call: every VU's requests are timed on these
   * threads, so a stall here inflates http_req_* timings (bench_event_loop_lag{thread:http}).
   */
  takeLoopLag(): number[] {
    return Array.from({ length: this.workers.length }, (_, i) => takePublishedLag(this.loopLag, i));
  }

  /** A new port for VU `vuId` (its own connection pool); transfer it to the VU's thread. */
  connectVu(vuId: number): MessagePort {
    if (this.closed) throw new Error('HttpIoPool is closed');
    const { port1, port2 } = new MessageChannel();
    const worker = this.workers[Math.abs(vuId) % this.workers.length];
    const message: IoControlMessage = { t: 'vu', vuId, port: port2 };
    worker.postMessage(message, [port2]);
    return port1;
  }

  /** Cancels in-flight requests, closes every connection and stops the threads. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(
      this.workers.map(async (worker) => {
        const closed = waitFor(worker, 'closed');
        const message: IoControlMessage = { t: 'close' };
        worker.postMessage(message);
        await closed;
        await worker.terminate();
      }),
    );
  }
}

async function startWorker(file: URL, workerData: IoWorkerData): Promise<Worker> {
  const worker = new Worker(file, { workerData });
  await waitFor(worker, 'ready');
  return worker;
}

function waitFor(worker: Worker, status: IoStatusMessage['t']): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: IoStatusMessage) => {
      if (message.t !== status) return;
      cleanup();
      resolve();
    };
    const onError = (err: Error) => {
      cleanup();
      reject(err);
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`HTTP I/O worker exited with code ${code} before it was ${status}`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
