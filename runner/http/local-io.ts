// A VU's async requests served on the VU's own thread (bench extension `--vu-async-io`): the same connection pool
// code as the HTTP I/O worker (runner/http/vu-connection.ts), without the two thread hand-offs per request that cap
// a thread-per-VU runner's rate on 2 cores (docs/runner-measurements.md §3). Sync calls (get/post/batch) still go
// through the I/O worker: a blocked thread cannot serve its own sockets.

import { type OutgoingRequest, requestMessage } from './io-channel';
import { VuConnection } from './vu-connection';
import type { AttachMessage, ReplyMessage } from './wire';

export class LocalIo {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: ReplyMessage) => void>();
  private readonly connection: VuConnection;

  constructor(attach: Omit<AttachMessage, 't'>) {
    this.connection = new VuConnection((reply) => {
      const resolve = this.waiting.get(reply.id);
      if (!resolve) return; // cancelled
      this.waiting.delete(reply.id);
      // Delivered in the check phase, once the poll phase has read every socket that was ready: resolved here, the
      // VU's continuation (its next iteration, as a microtask) would run between this socket's callback and the next
      // one's, and the other VUs' response timestamps on this thread would wait for it.
      setImmediate(resolve, reply);
    });
    this.connection.handle({ t: 'attach', ...attach });
  }

  /** Requests sent and not yet answered or cancelled. */
  get inFlight(): number {
    return this.waiting.size;
  }

  sendAsync(request: OutgoingRequest): { id: number; reply: Promise<ReplyMessage> } {
    if (request.sharedBody >= 0)
      throw new Error('LocalIo: shared bodies are for sync calls through the I/O worker');
    const id = this.nextId++;
    const reply = new Promise<ReplyMessage>((resolve) => {
      this.waiting.set(id, resolve);
    });
    this.connection.handle(requestMessage(request, id, false));
    return { id, reply };
  }

  cancel(id: number): void {
    if (this.waiting.delete(id)) this.connection.handle({ t: 'cancel', id });
  }

  cancelAll(): void {
    for (const id of [...this.waiting.keys()]) this.cancel(id);
  }

  closeIdleConnections(): void {
    this.connection.handle({ t: 'closeIdle' });
  }

  /** Cancels what is in flight and resolves once every connection is closed. */
  close(): Promise<void> {
    this.waiting.clear();
    return this.connection.close();
  }
}
