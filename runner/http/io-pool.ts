// The HTTP I/O worker threads of one run, started on the main thread: each VU gets a MessagePort to one of them
// (connectVu) and its k6/http module sends every request through it, so a VU blocked in a sync call costs no I/O
// thread and socket timings are taken on a thread that only does I/O.
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { workerUrl } from '../../core/worker-url';
import { takePublishedLag } from '../metrics/loop-lag';
import type { IoControlMessage, IoStatusMessage, IoWorkerData } from './wire';

export interface HttpIoPoolOptions {
  /**
   * I/O worker threads; VUs are spread over them round-robin by id.
   * @default 1 (one thread keeps up with the 2-core target; see benchmarks/bench-http-client.ts)
   */
  workers?: number;
  /** Where the worker bundle is; tests running TypeScript sources point it at dist/http-io.worker.js. */
  workerFile?: URL;
}

export class HttpIoPool {
  private closed = false;

  private constructor(
    /**
     * Each worker once started, with its 'ready' (it has loaded its HTTP client and is idle until requests come);
     * undefined until a VU is connected to it (see lazy()).
     */
    private readonly workers: Array<{ worker: Worker; ready: Promise<void> } | undefined>,
    private readonly file: URL,
    private readonly loopLag: Int32Array,
  ) {}

  /** Starts every worker and waits until each is ready. */
  static async start(options: HttpIoPoolOptions = {}): Promise<HttpIoPool> {
    const pool = HttpIoPool.lazy(options);
    for (let index = 0; index < pool.size; index++) pool.worker(index);
    await pool.whenBooted();
    return pool;
  }

  /**
   * A pool whose workers start when the first VU is connected to them: a run whose VUs share host threads needs an
   * I/O worker only for setup() and teardown(), and a VU's port works before its worker is up (messages wait).
   */
  static lazy(options: HttpIoPoolOptions = {}): HttpIoPool {
    const count = options.workers ?? 1;
    if (!Number.isInteger(count) || count < 1) {
      throw new Error(`HttpIoPool: workers must be a positive integer, got ${count}`);
    }
    const file = options.workerFile ?? workerUrl('http-io.worker');
    const loopLag = new Int32Array(new SharedArrayBuffer(4 * count));
    return new HttpIoPool(
      Array.from({ length: count }, () => undefined),
      file,
      loopLag,
    );
  }

  /** The number of worker threads the pool starts at most. */
  get size(): number {
    return this.workers.length;
  }

  private worker(index: number): Worker {
    const started = this.workers[index];
    if (started) return started.worker;
    const workerData: IoWorkerData = { loopLag: this.loopLag, index };
    const worker = new Worker(this.file, { workerData });
    const ready = waitFor(worker, 'ready');
    // A worker that fails to boot fails its requests (or the run, for whoever awaits whenBooted()).
    ready.catch(() => {});
    this.workers[index] = { worker, ready };
    return worker;
  }

  /**
   * Resolves once every worker started so far has booted (rejects if one could not). A run waits for this before its
   * scenarios start: a worker that setup() started (or a VU with a thread of its own) spends a burst of CPU loading
   * undici (docs/runner-measurements.md §4.2), and on a 2-CPU machine that CPU came out of the test's first starts as
   * dropped iterations (docs/runner-measurements.md §2.2).
   */
  async whenBooted(): Promise<void> {
    await Promise.all(this.workers.map((started) => started?.ready));
  }

  /**
   * Each worker's largest event-loop delay (ms) since the previous call, NaN for one not started: every VU's requests
   * are timed on these threads, so a stall here inflates http_req_* timings (bench_event_loop_lag{thread:http}).
   */
  takeLoopLag(): number[] {
    return this.workers.map((started, i) => (started ? takePublishedLag(this.loopLag, i) : Number.NaN));
  }

  /** Starts the worker that VU `vuId`'s port will be served by, ahead of connectVu (it boots meanwhile). */
  startFor(vuId: number): void {
    if (!this.closed) this.worker(this.indexOf(vuId));
  }

  private indexOf(vuId: number): number {
    return Math.abs(vuId) % this.workers.length;
  }

  /** A new port for VU `vuId` (its own connection pool); transfer it to the VU's thread. */
  connectVu(vuId: number): MessagePort {
    if (this.closed) throw new Error('HttpIoPool is closed');
    const { port1, port2 } = new MessageChannel();
    const worker = this.worker(this.indexOf(vuId));
    const message: IoControlMessage = { t: 'vu', vuId, port: port2 };
    worker.postMessage(message, [port2]);
    return port1;
  }

  /** Cancels in-flight requests, closes every connection and stops the threads. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all(
      this.workers.map(async (started) => {
        if (!started) return;
        const { worker } = started;
        const closed = waitFor(worker, 'closed');
        const message: IoControlMessage = { t: 'close' };
        worker.postMessage(message);
        await closed;
        await worker.terminate();
      }),
    );
  }
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
