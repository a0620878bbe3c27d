// The main thread's side of a VU host thread (`--vu-threads`, runner/vu-host.worker.ts): one worker serving many
// VUs, each reached through its own link so the rest of the engine treats a hosted VU like a thread-per-VU one.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { workerUrl } from '../../core/worker-url';
import type { Aggregator } from '../metrics/aggregator';
import { takePublishedLag } from '../metrics/loop-lag';
import type { HostData, HostToMain, MainToHost, MainToRealm, RealmData } from '../vu/wire';
import type { RealmLink } from './realm-handle';

/** One hosted VU as a RealmLink: its messages are tagged with its id on the way in and sorted by it on the way out. */
class HostedLink extends EventEmitter implements RealmLink {
  private gone = false;

  constructor(
    private readonly host: VuHost,
    readonly vuId: number,
  ) {
    super();
  }

  postMessage(message: MainToRealm): void {
    this.host.send({ type: 'toVu', vu: this.vuId, message });
  }

  /** The VU is gone (it exited, the host thread ended, or it was terminated): emits `exit` once. */
  end(code: number): void {
    if (this.gone) return;
    this.gone = true;
    this.host.forget(this.vuId);
    this.emit('exit', code);
  }

  async terminate(): Promise<void> {
    // A VU cannot be stopped alone on a shared thread: it is told to exit and forgotten.
    this.postMessage({ type: 'exit' });
    this.end(1);
  }
}

export class VuHost {
  private readonly worker: Worker;
  private readonly links = new Map<number, HostedLink>();
  private exited = false;
  private readonly loopLag = new Int32Array(new SharedArrayBuffer(4));

  /** `sourceId`: the aggregator source of the thread's sample batches (one encoder serves all its VUs). */
  constructor(
    hosting: Omit<HostData, 'loopLag'>,
    aggregator: Aggregator,
    private readonly sourceId: string,
  ) {
    const data: HostData = {
      scriptPath: hosting.scriptPath,
      awaits: hosting.awaits,
      shifts: hosting.shifts,
      refusal: hosting.refusal,
      loopLag: this.loopLag,
    };
    this.worker = new Worker(workerUrl('vu-host.worker'), { workerData: data });
    this.worker.on('message', ({ vu, message }: HostToMain) => {
      if (message.type === 'samples') {
        aggregator.ingest(this.sourceId, message);
        return;
      }
      // The thread's own messages (vu 0: an error no VU awaited) go to any of its VUs' handles. A forgotten VU's
      // late messages are dropped: its samples' ids mean nothing to another VU's handle.
      const link = vu === 0 ? this.links.values().next().value : this.links.get(vu);
      link?.emit('message', message);
    });
    this.worker.on('error', (error) => {
      for (const link of this.links.values()) link.emit('error', error);
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      aggregator.dropSource(this.sourceId);
      for (const link of [...this.links.values()]) link.end(code);
    });
  }

  /** The thread's largest event-loop lag (ms) since the previous call. */
  takeLoopLag(): number {
    return takePublishedLag(this.loopLag, 0);
  }

  /** VUs on this thread now. */
  get size(): number {
    return this.links.size;
  }

  /** Creates VU `data.vuId` on this thread; its `ready` or `initError` arrives on the returned link. */
  spawn(data: RealmData): RealmLink {
    const link = new HostedLink(this, data.vuId);
    this.links.set(data.vuId, link);
    this.send({ type: 'spawn', data });
    return link;
  }

  send(message: MainToHost): void {
    if (!this.exited) this.worker.postMessage(message);
  }

  forget(vuId: number): void {
    this.links.delete(vuId);
  }

  /** Ends the thread (after its VUs were told to exit, or when it never got one). */
  async close(): Promise<void> {
    if (!this.exited) await this.worker.terminate();
  }
}
