// Initialised VUs of a run: the planned ones created before setup (concurrently), unplanned ones created on demand
// by arrival-rate executors, handed to scenarios and returned when a scenario ends (a VU keeps its realm).
import type { TransferListItem } from 'node:worker_threads';
import { BenchError } from '../../core/errors';
import { EXIT_SCRIPT_EXCEPTION } from '../../core/exit-codes';
import { IN_VUS_INITIALIZED, newInt32Block, SIGNAL_WORDS } from '../control-block';
import type { HttpIoPool } from '../http/io-pool';
import type { HostData, RealmData } from '../vu/wire';
import { type RealmEvents, type RealmLink, VuHandle, workerLink } from './realm-handle';
import { VuHost } from './vu-host';

/** VUs sharing host threads: the classic-script bundle, how many threads, and how the bundle was rewritten. */
export type Hosting = Omit<HostData, 'loopLag'> & { threads: number };

/**
 * How long a scenario start waits for planned VUs still finishing the scenario before it (k6 waits for a planned VU
 * too): a scenario that starts the instant another ends would otherwise get fresh threads, cold and costly to start.
 */
const RELEASE_WAIT_MS = 1000;

export class VuPool {
  private readonly free: VuHandle[] = [];
  /** Resolved (and cleared) on every release: acquire() waiting for VUs to come back. */
  private releaseWaiters: Array<() => void> = [];
  readonly all: VuHandle[] = [];
  private nextId = 1;

  /** VU host threads (`--vu-threads`), started as VUs need them. */
  private readonly hosts: VuHost[] = [];

  /**
   * `hosting`: with a script path and a thread count, VUs share that many host threads (runner/vu-host.worker.ts)
   * instead of getting one thread each.
   */
  constructor(
    private readonly template: Omit<RealmData, 'mode' | 'vuId' | 'signal' | 'httpPort'>,
    private readonly events: RealmEvents,
    private readonly http: HttpIoPool | undefined,
    private readonly instance: Int32Array,
    private readonly hosting?: Hosting,
  ) {}

  /** The host thread for a new VU: a new one until there are `threads`, then the one with the fewest VUs. */
  private hostFor(hosting: Hosting): VuHost {
    if (this.hosts.length < hosting.threads) {
      const host = new VuHost(hosting, this.events.aggregator, `vu-host-${this.hosts.length + 1}`);
      this.hosts.push(host);
      return host;
    }
    return this.hosts.reduce((a, b) => (b.size < a.size ? b : a));
  }

  /** Each host thread's largest event-loop lag (ms) since the previous call (`--vu-threads`; empty otherwise). */
  takeHostLoopLag(): number[] {
    return this.hosts.map((host) => host.takeLoopLag());
  }

  get initialized(): number {
    return this.all.filter((v) => v.alive).length;
  }

  /** Creates one VU and waits for its init code; init errors become exit 107. */
  async spawn(): Promise<VuHandle> {
    const vuId = this.nextId++;
    const signal = newInt32Block(SIGNAL_WORDS);
    let link: RealmLink;
    if (this.hosting) {
      // Hosted VUs serve their async requests on their own thread and cannot make sync ones: no I/O port.
      link = this.hostFor(this.hosting).spawn({ ...this.template, mode: 'vu', vuId, signal });
    } else {
      const transfer: TransferListItem[] = [];
      const httpPort = this.http?.connectVu(vuId);
      if (httpPort) transfer.push(httpPort);
      link = workerLink({ ...this.template, mode: 'vu', vuId, signal, httpPort }, transfer);
    }
    const vu = new VuHandle(vuId, signal, link, this.events);
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

  /**
   * Takes `count` free VUs. `planned`: the plan reserved them, so while VUs are still out (a scenario that ended at
   * this instant returns its VUs a moment later) wait up to RELEASE_WAIT_MS for them; VUs still missing then (or
   * unplanned ones, arrival-rate growth) are created.
   */
  async acquire(count: number, planned = false): Promise<VuHandle[]> {
    const out: VuHandle[] = [];
    const deadline = Date.now() + (planned ? RELEASE_WAIT_MS : 0);
    for (;;) {
      while (out.length < count && this.free.length > 0) {
        const vu = this.free.shift() as VuHandle;
        if (vu.alive) out.push(vu);
      }
      const elsewhere = this.all.filter((v) => v.alive).length - out.length;
      const left = deadline - Date.now();
      if (out.length >= count || elsewhere === 0 || left <= 0) break;
      await this.nextRelease(left);
    }
    while (out.length < count) out.push(await this.spawn());
    return out;
  }

  release(vus: VuHandle[]): void {
    for (const vu of vus) if (vu.alive && !this.free.includes(vu)) this.free.push(vu);
    const waiters = this.releaseWaiters;
    this.releaseWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves at the next release() or after `ms`. */
  private nextRelease(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.releaseWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async closeAll(): Promise<void> {
    for (const vu of this.all) vu.post({ type: 'exit' });
    await Promise.all(
      this.all.map(
        (vu) =>
          new Promise<void>((resolve) => {
            if (!vu.alive) return resolve();
            const t = setTimeout(() => void vu.terminate().then(() => resolve()), 2000);
            vu.link.once('exit', () => {
              clearTimeout(t);
              resolve();
            });
          }),
      ),
    );
    await Promise.all(this.hosts.map((host) => host.close()));
  }
}
