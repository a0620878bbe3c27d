// One VU's HTTP connections and the requests in flight on them: its own keep-alive connections (./vu-dispatcher.ts;
// k6 never shares connections between VUs), served either on an HTTP I/O worker (replies posted back through the
// VU's port, waking the VU when it blocks on them) or on the VU's own thread (runner/http/local-io.ts, async requests
// only).
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import type { Client } from 'undici';
import { SIGNAL_WAKE } from '../modules/module-host';
import { Exchange } from './exchange';
import { sharedBodyView } from './shared-body';
import { justConnectedSocket, timedConnector } from './socket-timings';
import type { TlsClientOptions } from './tls-options';
import { undici } from './undici';
import { VuDispatcher } from './vu-dispatcher';
import type { AttachMessage, ReplyMessage, RequestMessage, VuToIoMessage } from './wire';

/**
 * Bodies above this size are written in slices of it, so encrypting and queueing a 30 MB upload never holds this
 * thread (and the timings of every other VU it serves) for longer than one slice.
 */
const SLICE_BYTES = 1024 * 1024;

/**
 * Slices of `body`, one per event-loop turn; stops early once `released()` (the VU may then reuse a shared buffer's
 * memory). The turn matters: a Readable in flowing mode pulls every slice a sync generator has in one turn, and the
 * socket writes of a 30 MB body then held this thread (every other VU's timing on it) for milliseconds at a time.
 */
async function* inSlices(body: Uint8Array, released: () => boolean = () => false): AsyncGenerator<Buffer> {
  for (let at = 0; at < body.byteLength && !released(); at += SLICE_BYTES) {
    yield Buffer.from(body.buffer, body.byteOffset + at, Math.min(SLICE_BYTES, body.byteLength - at));
    await nextTurn();
  }
}

/** What undici gets as the body of one request, and what must happen when the exchange is over. */
interface DispatchBody {
  body: Buffer | Readable | null;
  /** Content-Length to add (stream bodies), or -1. */
  length: number;
  release?: () => void;
}

/** Idle keep-alive connections live this long (Go's http.Transport default idle timeout is 90 s). */
const KEEP_ALIVE_MS = 90_000;

/**
 * A Client whose concurrency follows the protocol its connection negotiated: one request at a time on HTTP/1.1 (k6
 * never pipelines), every request as a stream of the one connection on HTTP/2 (as Go does). undici would keep an
 * HTTP/2 client at `pipelining: 1` and open a connection per concurrent request.
 */
function protocolAwareClient(origin: URL, connect: ReturnType<typeof timedConnector>): Client {
  const client = new (undici().Client)(origin, {
    connect,
    allowH2: true,
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MS,
    // k6 has one whole-request timeout (params.timeout), enforced by Exchange; undici's own are turned off.
    headersTimeout: 0,
    bodyTimeout: 0,
    pipelining: 1,
  });
  client.on('connect', () => {
    const socket = justConnectedSocket() as TLSSocket | undefined;
    client.pipelining = socket?.alpnProtocol === 'h2' ? Number.POSITIVE_INFINITY : 1;
  });
  return client;
}

/** Where replies go: the VU's port (I/O worker) or straight to the waiting promise (VU thread). */
export type ReplySink = (reply: ReplyMessage, transfer: ArrayBuffer[]) => void;

export class VuConnection {
  private signal: Int32Array | undefined;
  private connections: VuDispatcher | undefined;
  private noConnectionReuse = false;
  private insecure = false;
  private tls: TlsClientOptions = {};
  private readonly inFlight = new Map<number, Exchange>();
  /** Bodies of in-flight requests that live in the VU's shared buffer: handed back when the exchange ends. */
  private readonly releases = new Map<number, () => void>();
  private sharedBuffer: SharedArrayBuffer | undefined;

  constructor(private readonly sink: ReplySink) {}

  handle(message: VuToIoMessage): void {
    switch (message.t) {
      case 'req':
        this.start(message);
        return;
      case 'cancel':
        this.inFlight.get(message.id)?.cancel();
        this.inFlight.delete(message.id);
        this.release(message.id);
        return;
      case 'sharedBody':
        this.sharedBuffer = message.buffer;
        return;
      case 'attach':
        this.attach(message);
        return;
      case 'closeIdle':
        this.closeIdle();
        return;
    }
  }

  private attach(message: AttachMessage): void {
    this.signal = message.signal;
    this.noConnectionReuse = message.noConnectionReuse;
    if (
      this.connections &&
      (this.insecure !== message.insecureSkipTLSVerify ||
        JSON.stringify(this.tls) !== JSON.stringify(message.tls ?? {}))
    )
      this.closeIdle();
    this.insecure = message.insecureSkipTLSVerify;
    this.tls = message.tls ?? {};
  }

  private dispatcher(): VuDispatcher {
    if (!this.connections) {
      // One connector for the VU's connections (its TLS session cache is the VU's); HTTP/2 only through TLS ALPN, as
      // k6 (no h2c).
      const connect = timedConnector({ rejectUnauthorized: !this.insecure, allowH2: true, ...this.tls });
      this.connections = new VuDispatcher((origin) => protocolAwareClient(origin, connect));
    }
    return this.connections;
  }

  /** Large bodies become a stream of slices with an explicit Content-Length; small ones a Buffer. */
  private dispatchBody(request: RequestMessage): DispatchBody {
    if (request.sharedBody >= 0) {
      if (!this.sharedBuffer) throw new Error('a shared request body arrived before its buffer');
      const { body, release } = sharedBodyView(this.sharedBuffer, request.sharedBody);
      let released = false;
      const stream = Readable.from(
        inSlices(body, () => released),
        { objectMode: false },
      );
      return {
        body: stream,
        length: body.byteLength,
        release: () => {
          released = true;
          release();
        },
      };
    }
    if (!request.body) return { body: null, length: -1 };
    if (request.body.byteLength > SLICE_BYTES) {
      return {
        body: Readable.from(inSlices(new Uint8Array(request.body)), { objectMode: false }),
        length: request.body.byteLength,
      };
    }
    return { body: Buffer.from(request.body), length: -1 };
  }

  private start(request: RequestMessage): void {
    const exchange = new Exchange(request, (reply) => this.reply(request, reply));
    this.inFlight.set(request.id, exchange);
    try {
      const { body, length, release } = this.dispatchBody(request);
      if (release) this.releases.set(request.id, release);
      this.dispatcher().dispatch(
        {
          origin: request.origin,
          path: request.path,
          method: request.method,
          headers: length >= 0 ? [...request.headers, 'content-length', String(length)] : request.headers,
          body,
          reset: this.noConnectionReuse,
        },
        exchange,
      );
    } catch (err) {
      exchange.onError(err as Error);
    }
  }

  /**
   * Hands a shared body back to the VU. Safe once the exchange has ended: undici writes no more of a request's body
   * after its response completed or it failed (it destroys a socket still writing one), and a cancelled exchange is
   * aborted, which stops the body stream.
   */
  private release(id: number): void {
    const release = this.releases.get(id);
    if (!release) return;
    this.releases.delete(id);
    release();
  }

  private reply(request: RequestMessage, reply: ReplyMessage): void {
    if (!this.inFlight.delete(request.id)) return;
    this.release(request.id);
    let transfer = reply.body;
    // The VU sends the body again after these: a redirect that keeps it, and a digest auth challenge.
    if (request.body && (reply.status === 307 || reply.status === 308 || reply.status === 401)) {
      reply.requestBody = request.body;
      transfer = [...reply.body, request.body];
    }
    this.sink(reply, transfer);
    if (request.wake && this.signal) {
      Atomics.store(this.signal, SIGNAL_WAKE, 1);
      Atomics.notify(this.signal, SIGNAL_WAKE);
    }
  }

  private closeIdle(): void {
    const connections = this.connections;
    this.connections = undefined;
    // close() lets in-flight requests finish and then drops the sockets; new requests get fresh connections.
    connections?.close().catch(() => {});
  }

  async close(): Promise<void> {
    for (const exchange of this.inFlight.values()) exchange.cancel();
    this.inFlight.clear();
    for (const id of [...this.releases.keys()]) this.release(id);
    const connections = this.connections;
    this.connections = undefined;
    await connections?.destroy().catch(() => {});
  }
}
