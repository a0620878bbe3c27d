// One HTTP exchange in the I/O worker: an undici dispatch handler that timestamps each k6 phase from inside the
// request lifecycle (connection obtained, request written, first response byte, body end) and builds the reply.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Dispatcher } from 'undici';
import { mapFailure, RequestTimeoutError } from './error-codes';
import {
  expectSocketFor,
  responseHead,
  type SocketListener,
  socketFacts,
  takeSocketBytes,
  watchResponseHead,
} from './socket-timings';
import type { ReplyMessage, RequestMessage } from './wire';

const EPOCH_OFFSET = performance.timeOrigin;

// The legacy (onConnect/onHeaders/...) handler shape: it is the one undici's Client calls directly (no wrapper), and
// the only one with onRequestSent and onResponseStarted, the "request written" and "first byte" instants.
type LegacyHandler = Dispatcher.DispatchHandler;

export class Exchange implements LegacyHandler, SocketListener {
  private readonly startedAt = performance.now();
  private connectedAt = 0;
  private sentAt = 0;
  private firstByteAt = 0;
  private socket: Socket | undefined;
  private connecting = 0;
  private tlsHandshaking = 0;
  private abortFn: ((err?: Error) => void) | undefined;
  private pendingAbort: Error | undefined;
  private status = 0;
  private statusText = '';
  private headers: string[] = [];
  private readonly body: ArrayBuffer[] = [];
  private bodyBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private finished = false;
  private headersDone = false;

  /** performance.now() at which the script's timeout runs out (Infinity: none). */
  private readonly deadline: number;

  constructor(
    readonly request: RequestMessage,
    private readonly done: (reply: ReplyMessage) => void,
  ) {
    const { timeoutMs } = request;
    this.deadline = timeoutMs > 0 && Number.isFinite(timeoutMs) ? this.startedAt + timeoutMs : Infinity;
    if (this.deadline !== Infinity) this.timer = setTimeout(this.onTimer, timeoutMs);
  }

  /**
   * The timeout as the script set it. libuv measures timers from its cached loop time, so one can fire before the
   * deadline by real time: it is armed again for the rest. One that fires late (this thread was busy: a large body,
   * GC, or a hosted VU's own script) first lets the socket reads already waiting run (the poll phase comes before
   * setImmediate), so a reply that arrived in time is not cut; a request that does time out ends at its deadline.
   */
  private readonly onTimer = (): void => {
    const early = this.deadline - performance.now();
    if (early > 0) {
      this.timer = setTimeout(this.onTimer, Math.ceil(early));
      return;
    }
    this.timer = undefined;
    setImmediate(() => this.fail(new RequestTimeoutError('request timeout')));
  };

  /** Stops the exchange without a reply (the VU no longer waits for it). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.finished = true;
    this.stop(new Error('request cancelled'));
  }

  onConnect(abort: (err?: Error) => void): void {
    this.connectedAt = performance.now();
    this.abortFn = abort;
    if (this.pendingAbort) {
      abort(this.pendingAbort);
      return;
    }
    expectSocketFor(this);
  }

  onSocket(socket: Socket): void {
    this.socket = socket;
    // HTTP/2 streams share the socket; its frames are not a response head (and h2 errors are not parser errors).
    if ((socket as TLSSocket).alpnProtocol !== 'h2') watchResponseHead(socket);
    const facts = socketFacts(socket);
    if (facts && !facts.claimed) {
      facts.claimed = true;
      this.connecting = facts.tcpEnd - facts.connectStart;
      this.tlsHandshaking = facts.tls ? facts.readyEnd - facts.tcpEnd : 0;
    }
  }

  onRequestSent(): void {
    const socket = this.socket;
    // A large body may still sit in the socket's buffer: "sent" is when it has been handed to the kernel. Only a
    // write that filled the buffer is followed by 'drain'; anything smaller is on its way already.
    if (socket?.writableNeedDrain) {
      socket.once('drain', () => {
        if (this.sentAt === 0) this.sentAt = performance.now();
      });
    } else {
      this.sentAt = performance.now();
    }
  }

  onResponseStarted(): void {
    if (this.firstByteAt === 0) this.firstByteAt = performance.now();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], _resume: () => void, statusText: string): boolean {
    // 1xx interim responses (100-continue) reach here too; the final response overwrites them.
    this.status = statusCode;
    if (!this.headersDone) {
      this.headersDone = true;
      if (this.socket) responseHead(this.socket, true);
    }
    // HTTP/2 has no reason phrase; Go (and so k6) shows the standard text.
    this.statusText = statusText || STATUS_CODES[statusCode] || '';
    const headers = new Array<string>(rawHeaders.length);
    for (let i = 0; i < rawHeaders.length; i++) headers[i] = rawHeaders[i].toString('latin1');
    this.headers = headers;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.bodyBytes += chunk.byteLength;
    if (!this.request.discardBody) {
      // Chunks are views into undici's read buffer: copy each (small, incremental) so it can be transferred.
      this.body.push(
        chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength) as ArrayBuffer,
      );
    }
    return true;
  }

  onComplete(): void {
    this.finish(null);
  }

  onError(err: Error): void {
    this.finish(err);
  }

  private fail(err: Error): void {
    if (this.finished) return;
    this.stop(err);
    // Before a connection was obtained undici will not call onError for us: reply now.
    if (!this.abortFn) this.finish(err);
  }

  private stop(err: Error): void {
    if (this.abortFn) this.abortFn(err);
    else this.pendingAbort = err;
  }

  private finish(err: Error | null): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.finished) return;
    this.finished = true;
    // A timed-out exchange ends at its deadline even when this thread noticed later (see onTimer).
    const end = err instanceof RequestTimeoutError ? this.deadline : performance.now();
    const connected = Math.min(this.connectedAt || end, end);
    const firstByte = Math.min(this.firstByteAt || end, end);
    // Not fully written when the response started (or the exchange failed): sending ends there.
    const sent = this.connectedAt ? Math.min(this.sentAt || firstByte, firstByte) : connected;
    const socket = this.socket;
    const tls = socket && (socket as TLSSocket).encrypted ? (socket as TLSSocket) : undefined;
    const protocol = tls?.getProtocol?.() ?? '';
    const cipher = tls?.getCipher?.();
    const bytes = takeSocketBytes(socket);
    this.done({
      t: 'res',
      id: this.request.id,
      status: err ? 0 : this.status,
      statusText: err ? '' : this.statusText,
      proto: err ? '' : tls?.alpnProtocol === 'h2' ? 'HTTP/2.0' : 'HTTP/1.1',
      headers: err ? [] : this.headers,
      body: err ? [] : this.body,
      bodyBytes: this.bodyBytes,
      timings: {
        blocked: connected - this.startedAt,
        connecting: this.connecting,
        tls_handshaking: this.tlsHandshaking,
        sending: sent - connected,
        waiting: firstByte - sent,
        receiving: end - firstByte,
      },
      endTime: EPOCH_OFFSET + end,
      remoteIp: socket?.remoteAddress ?? '',
      remotePort: socket?.remotePort ?? 0,
      tlsVersion: tlsVersionName(protocol),
      tlsCipherSuite: cipher?.standardName ?? '',
      sentBytes: bytes.sentBytes,
      receivedBytes: bytes.receivedBytes,
      error: err
        ? mapFailure(err, { head: responseHead(socket, true), headersDone: this.headersDone })
        : null,
      requestBody: null,
    });
  }
}

/** Node's "TLSv1.3" -> k6's "tls1.3". */
function tlsVersionName(protocol: string | null): string {
  if (!protocol?.startsWith('TLSv')) return '';
  return `tls${protocol.slice(4)}`;
}
