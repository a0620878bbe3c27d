// Initialised VUs of a run: the planned ones created before setup (concurrently), unplanned ones created on demand
// by arrival-rate executors, handed to scenarios and returned when a scenario ends (a VU keeps its realm).
import type { TransferListItem } from 'node:worker_threads';
import { IN_VUS_INITIALIZED, newInt32Block, SIGNAL_WORDS } from '../control-block';
import { BenchError } from '../errors';
import { EXIT_SCRIPT_EXCEPTION } from '../exit-codes';
import type { HttpIoPool } from '../http/io-pool';
import type { RealmData } from '../vu/wire';
import { type RealmEvents, VuHandle } from './realm-handle';

export class VuPool {
  private readonly free: VuHandle[] = [];
  readonly all: VuHandle[] = [];
  private nextId = 1;

  constructor(
    private readonly template: Omit<RealmData, 'mode' | 'vuId' | 'signal' | 'httpPort'>,
    private readonly events: RealmEvents,
    private readonly http: HttpIoPool | undefined,
    private readonly instance: Int32Array,
  ) {}

  get initialized(): number {
    return this.all.filter((v) => v.alive).length;
  }

  /** Creates one VU and waits for its init code; init errors become exit 107. */
  async spawn(): Promise<VuHandle> {
    const vuId = this.nextId++;
    const signal = newInt32Block(SIGNAL_WORDS);
    const transfer: TransferListItem[] = [];
    const httpPort = this.http?.connectVu(vuId);
    if (httpPort) transfer.push(httpPort);
    const data: RealmData = { ...this.template, mode: 'vu', vuId, signal, httpPort };
    const vu = new VuHandle(vuId, signal, data, transfer, this.events);
    const reply = await vu
      .next('ready', 'initError')
      .catch((e: Error) => ({ type: 'initError' as const, message: e.message }));
    if (reply.type === 'initError') {
      await vu.terminate();
      throw new BenchError(`could not initialize VU #${vuId}: ${reply.message}`, EXIT_SCRIPT_EXCEPTION);
    }
    this.all.push(vu);
    Atomics.store(this.instance, IN_VUS_INITIALIZED, this.initialized);
    return vu;
  }

  /** Initialises `count` VUs concurrently (the planned peak) and puts them in the free list. */
  async prepare(count: number): Promise<void> {
    const vus = await Promise.all(Array.from({ length: count }, () => this.spawn()));
    this.free.push(...vus);
  }

  /** Takes `count` free VUs, creating missing ones (should not happen when the plan was prepared). */
  async acquire(count: number): Promise<VuHandle[]> {
    const out: VuHandle[] = [];
    while (out.length < count && this.free.length > 0) {
      const vu = this.free.shift() as VuHandle;
      if (vu.alive) out.push(vu);
    }
    while (out.length < count) out.push(await this.spawn());
    return out;
  }

  release(vus: VuHandle[]): void {
    for (const vu of vus) if (vu.alive && !this.free.includes(vu)) this.free.push(vu);
  }

  async closeAll(): Promise<void> {
    for (const vu of this.all) vu.post({ type: 'exit' });
    await Promise.all(
      this.all.map(
        (vu) =>
          new Promise<void>((resolve) => {
            if (!vu.alive) return resolve();
            const t = setTimeout(() => void vu.terminate().then(() => resolve()), 2000);
            vu.worker.once('exit', () => {
              clearTimeout(t);
              resolve();
            });
          }),
      ),
    );
  }
}
