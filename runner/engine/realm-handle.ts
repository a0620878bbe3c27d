// The main thread's handle on one realm worker: routes its messages (samples to the aggregator, logs to the
// logger, aborts to the run) and lets the engine await the replies it expects (ready, result, activationDone).
import { type TransferListItem, Worker } from 'node:worker_threads';
import { workerUrl } from '../../core/worker-url';
import { raiseInterrupt, SIGNAL_INTERRUPT, SIGNAL_STOP_NEW } from '../control-block';
import type { Aggregator } from '../metrics/aggregator';
import type { SampleBatch } from '../metrics/sample-batch';
import type { ActivateMessage, MainToRealm, RealmData, RealmToMain } from '../vu/wire';
import type { Logger } from './logger';

export interface RealmEvents {
  aggregator: Aggregator;
  logger: Logger;
  /** `code`: the exit code when it is not 108 (exec.test.abort). */
  onAbort(message: string, code?: number): void;
  onTestFail(message: string): void;
}

type Reply = Exclude<RealmToMain, SampleBatch | { type: 'log' } | { type: 'abort' } | { type: 'testFail' }>;

/** What a handle talks to: a realm's own worker thread, or a hosted VU's slot on a shared thread (vu-host.ts). */
export interface RealmLink {
  postMessage(message: MainToRealm): void;
  on(event: 'message', listener: (message: RealmToMain | SampleBatch) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  once(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): Promise<unknown>;
}

/** A realm in its own worker thread (runner/vu.worker.ts). */
export function workerLink(data: RealmData, transfer: TransferListItem[]): RealmLink {
  return new Worker(workerUrl('vu.worker'), { workerData: data, transferList: transfer });
}

export class RealmHandle {
  private waiters: Array<{ types: string[]; resolve: (m: Reply) => void; reject: (e: Error) => void }> = [];
  private exited = false;
  private exitError: Error | undefined;

  constructor(
    readonly id: string,
    readonly link: RealmLink,
    private readonly events: RealmEvents,
  ) {
    this.link.on('message', (m: RealmToMain | SampleBatch) => this.route(m));
    this.link.on('error', (error) => {
      this.exitError = error;
      this.events.logger.error(`${id}: ${error.stack ?? error.message}`);
    });
    this.link.on('exit', (code) => {
      this.exited = true;
      const error = this.exitError ?? new Error(`${id} realm exited (code ${code})`);
      for (const w of this.waiters) w.reject(error);
      this.waiters = [];
      this.events.aggregator.dropSource(id);
    });
  }

  private route(m: RealmToMain | SampleBatch): void {
    switch (m.type) {
      case 'samples':
        this.events.aggregator.ingest(this.id, m);
        return;
      case 'log':
        this.events.logger.log(m.level, m.message, m.fields);
        return;
      case 'abort':
        this.events.onAbort(m.message, m.code);
        return;
      case 'testFail':
        this.events.onTestFail(m.message);
        return;
    }
    const i = this.waiters.findIndex((w) => w.types.includes(m.type));
    if (i >= 0) {
      const [w] = this.waiters.splice(i, 1);
      w.resolve(m);
    }
  }

  /** Resolves with the next message of one of `types`. */
  next(...types: Reply['type'][]): Promise<Reply> {
    if (this.exited) return Promise.reject(this.exitError ?? new Error(`${this.id} realm has exited`));
    return new Promise((resolve, reject) => this.waiters.push({ types, resolve, reject }));
  }

  post(message: MainToRealm): void {
    if (!this.exited) this.link.postMessage(message);
  }

  get alive(): boolean {
    return !this.exited;
  }

  async terminate(): Promise<void> {
    if (!this.exited) await this.link.terminate();
  }
}

/** A VU realm: activations and interruption. */
export class VuHandle extends RealmHandle {
  private gen = 0;

  constructor(
    readonly vuId: number,
    readonly signal: Int32Array,
    link: RealmLink,
    events: RealmEvents,
  ) {
    super(`vu${vuId}`, link, events);
  }

  /** Starts an activation; resolves with the number of iterations it did not start (per-vu-iterations). */
  async activate(message: Omit<ActivateMessage, 'type' | 'gen'>): Promise<number> {
    const gen = ++this.gen;
    // A fresh activation is neither interrupted nor told to leave.
    Atomics.store(this.signal, SIGNAL_INTERRUPT, 0);
    Atomics.store(this.signal, SIGNAL_STOP_NEW, 0);
    const done = this.next('activationDone');
    this.post({ type: 'activate', gen, ...message });
    const reply = await done;
    return reply.type === 'activationDone' ? reply.notStarted : 0;
  }

  /** Interrupts the current iteration: wakes blocking waits (sleep, sync HTTP) and async waits. */
  interrupt(): void {
    raiseInterrupt(this.signal);
    this.post({ type: 'interrupt', gen: this.gen });
  }

  /** Asks the VU to leave its activation after the current iteration. */
  stopNew(): void {
    Atomics.store(this.signal, SIGNAL_STOP_NEW, 1);
  }
}
