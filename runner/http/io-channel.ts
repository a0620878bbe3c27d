// The VU side of the port to its HTTP I/O worker: numbers requests, blocks the VU thread for sync calls
// (Atomics.wait + receiveMessageOnPort, so only this VU waits) and resolves async ones from port events.
import { type MessagePort, receiveMessageOnPort } from 'node:worker_threads';
import { SIGNAL_INTERRUPT, SIGNAL_WAKE } from '../modules/module-host';
import type { SharedBodyBuffer } from './shared-body';
import type { AttachMessage, IoToVuMessage, ReplyMessage, RequestMessage, VuToIoMessage } from './wire';

/** A request as the VU builds it; the channel adds the id and the wake flag. */
export type OutgoingRequest = Omit<RequestMessage, 't' | 'id' | 'wake'>;

/** Thrown out of a blocking wait when the iteration was interrupted and host.throwIfInterrupted did not throw. */
export class InterruptedWaitError extends Error {
  override name = 'InterruptedWaitError';
}

// Re-check the interrupt word at least this often: a notify that lands between our check and Atomics.wait is
// otherwise only seen at the next reply.
const WAIT_SLICE_MS = 50;

/** The wire message of one request (field by field: a spread into a literal is slow on this per-request path). */
export function requestMessage(request: OutgoingRequest, id: number, wake: boolean): RequestMessage {
  return {
    t: 'req',
    id,
    wake,
    method: request.method,
    origin: request.origin,
    path: request.path,
    headers: request.headers,
    body: request.body,
    sharedBody: request.sharedBody,
    timeoutMs: request.timeoutMs,
    discardBody: request.discardBody,
  };
}

export class IoChannel {
  private nextId = 1;
  private attached = false;
  private readonly blocking = new Map<number, ReplyMessage | undefined>();
  private readonly waiting = new Map<number, (reply: ReplyMessage) => void>();

  constructor(
    private readonly port: MessagePort,
    private readonly signal: Int32Array,
    private readonly attach: Omit<AttachMessage, 't' | 'signal'>,
    private readonly throwIfInterrupted: () => void,
    /** Where requests with `sharedBody >= 0` have their body (announced to the worker before first use). */
    private readonly sharedBody?: SharedBodyBuffer,
  ) {
    port.on('message', (message: IoToVuMessage) => this.route(message));
    port.unref();
  }

  /** Sends a request the caller will block on with waitAny (sync calls and batch). */
  sendBlocking(request: OutgoingRequest): number {
    const id = this.post(request, true);
    this.blocking.set(id, undefined);
    return id;
  }

  /**
   * Blocks this thread until at least one of `wanted` has its reply and returns every reply already there (each id is
   * returned once). On interruption cancels all of `wanted` still open and throws.
   */
  waitAny(wanted: readonly number[]): ReplyMessage[] {
    const signal = this.signal;
    for (;;) {
      Atomics.store(signal, SIGNAL_WAKE, 0);
      this.drain();
      const ready: ReplyMessage[] = [];
      for (const id of wanted) {
        const reply = this.blocking.get(id);
        if (reply) {
          ready.push(reply);
          this.blocking.delete(id);
        }
      }
      if (ready.length > 0) {
        // Leave the word as other blocking waits of this VU (sleep) expect to find it.
        Atomics.store(signal, SIGNAL_WAKE, 0);
        return ready;
      }
      if (Atomics.load(signal, SIGNAL_INTERRUPT) !== 0) {
        for (const id of wanted) this.cancel(id);
        this.throwIfInterrupted();
        throw new InterruptedWaitError('the iteration was interrupted while waiting for an HTTP response');
      }
      Atomics.wait(signal, SIGNAL_WAKE, 0, WAIT_SLICE_MS);
    }
  }

  /** Sends a request whose reply arrives as a port event (asyncRequest). */
  sendAsync(request: OutgoingRequest): { id: number; reply: Promise<ReplyMessage> } {
    const id = this.post(request, false);
    const reply = new Promise<ReplyMessage>((resolve) => {
      this.waiting.set(id, resolve);
    });
    this.port.ref();
    return { id, reply };
  }

  /** Stops a request nobody waits for any more (no reply will come). */
  cancel(id: number): void {
    this.blocking.delete(id);
    if (this.waiting.delete(id) && this.waiting.size === 0) this.port.unref();
    this.send({ t: 'cancel', id });
  }

  /** Cancels every async request in flight (iteration interrupted); their promises never settle. */
  cancelAll(): void {
    for (const id of [...this.waiting.keys()]) this.cancel(id);
  }

  closeIdleConnections(): void {
    this.send({ t: 'closeIdle' });
  }

  private post(request: OutgoingRequest, wake: boolean): number {
    const id = this.nextId++;
    if (request.sharedBody >= 0) {
      if (!this.sharedBody)
        throw new Error('IoChannel: a shared request body needs the VU shared body buffer');
      const fresh = this.sharedBody.takeUnannounced();
      if (fresh) this.send({ t: 'sharedBody', buffer: fresh });
      this.sharedBody.markBusy();
    }
    this.send(requestMessage(request, id, wake), request.body ? [request.body] : undefined);
    return id;
  }

  private send(message: VuToIoMessage, transfer?: ArrayBuffer[]): void {
    if (!this.attached) {
      this.attached = true;
      const attach: AttachMessage = { t: 'attach', signal: this.signal, ...this.attach };
      this.port.postMessage(attach);
    }
    this.port.postMessage(message, transfer);
  }

  private drain(): void {
    for (;;) {
      const received = receiveMessageOnPort(this.port);
      if (!received) return;
      this.route(received.message as IoToVuMessage);
    }
  }

  private route(reply: IoToVuMessage): void {
    if (this.blocking.has(reply.id)) {
      this.blocking.set(reply.id, reply);
      return;
    }
    const resolve = this.waiting.get(reply.id);
    if (!resolve) return; // a reply to a cancelled request
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.port.unref();
    resolve(reply);
  }
}
