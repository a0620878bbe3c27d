// Messages between a VU's k6/http module and its HTTP I/O worker (runner/http/http-io.worker.ts), both directions,
// and between HttpIoPool (main thread) and its workers. Bodies travel as transferred ArrayBuffers so a 30 MB payload
// is never copied between threads.
import type { MessagePort } from 'node:worker_threads';
import type { TlsClientOptions } from './tls-options';

/** VU -> I/O worker, once per port before the first request: where to wake the VU and how its pool behaves. */
export interface AttachMessage {
  t: 'attach';
  /** The VU's ModuleHost.signal (SharedArrayBuffer-backed); replies to `wake` requests notify SIGNAL_WAKE. */
  signal: Int32Array;
  insecureSkipTLSVerify: boolean;
  /** Absent: Node's TLS defaults. */
  tls?: TlsClientOptions;
  /** k6 noConnectionReuse: every request gets a fresh connection (`Connection: close`). */
  noConnectionReuse: boolean;
}

/** VU -> I/O worker: one HTTP exchange (one redirect hop). */
export interface RequestMessage {
  t: 'req';
  id: number;
  /** True when the VU thread blocks on the reply (sync calls, batch): the worker notifies SIGNAL_WAKE after posting. */
  wake: boolean;
  method: string;
  /** "http(s)://host:port" of the URL, already validated by the VU side. */
  origin: string;
  /** Path and query string. */
  path: string;
  /** Flat [name, value, name, value, ...] list, names as the user wrote them. */
  headers: string[];
  body: ArrayBuffer | null;
  /**
   * Byte length of a body the VU wrote into its shared body buffer (runner/http/shared-body.ts) instead of `body`;
   * -1 when the body (if any) is in `body`.
   */
  sharedBody: number;
  /** Whole-request budget including the body read; the reply then carries error code 1050. */
  timeoutMs: number;
  /** responseType `none`: read the body and drop it in the I/O worker (only its size is reported). */
  discardBody: boolean;
}

/** VU -> I/O worker: stop a request (interrupted iteration); no reply is sent for it. */
interface CancelMessage {
  t: 'cancel';
  id: number;
}

/** VU -> I/O worker: close this VU's idle keep-alive connections (k6 noVUConnectionReuse, at iteration end). */
interface CloseIdleMessage {
  t: 'closeIdle';
}

/** VU -> I/O worker: the VU's shared body buffer from now on (sent once per buffer, before the request using it). */
interface SharedBodyMessage {
  t: 'sharedBody';
  buffer: SharedArrayBuffer;
}

export type VuToIoMessage =
  | AttachMessage
  | RequestMessage
  | CancelMessage
  | CloseIdleMessage
  | SharedBodyMessage;

/** Phase durations in milliseconds (float, sub-millisecond), k6's `res.timings` minus `duration`. */
export interface PhaseTimings {
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
}

/** A network-level failure, already mapped to k6's numbers (runner/http/error-codes.ts). */
export interface WireError {
  code: number;
  message: string;
}

/** I/O worker -> VU: the outcome of one RequestMessage. */
export interface ReplyMessage {
  t: 'res';
  id: number;
  /** 0 when no response arrived (then `error` is set). */
  status: number;
  statusText: string;
  /** "HTTP/1.1" or "HTTP/2.0"; "" without a response. */
  proto: string;
  /** Flat [name, value, ...] as received (latin1). */
  headers: string[];
  /** Raw (still content-encoded) body in arrival order; transferred, never copied. Empty for `discardBody`. */
  body: ArrayBuffer[];
  bodyBytes: number;
  timings: PhaseTimings;
  /** Epoch milliseconds at the end of the request (body read or error): the timestamp of all its samples. */
  endTime: number;
  remoteIp: string;
  remotePort: number;
  /** "tls1.2", "tls1.3" or "" for plain HTTP. */
  tlsVersion: string;
  tlsCipherSuite: string;
  /** Bytes written to / read from the socket for this exchange (headers included). */
  sentBytes: number;
  receivedBytes: number;
  error: WireError | null;
  /** The request body handed back for 307/308 redirects, which resend it (it was transferred, not copied); null for
   * shared bodies, which stay in the VU's shared buffer. */
  requestBody: ArrayBuffer | null;
}

export type IoToVuMessage = ReplyMessage;

/** workerData of an I/O worker. */
export interface IoWorkerData {
  /** One word per worker: the largest event-loop delay (µs) seen since the main thread last took it (0). */
  loopLag: Int32Array;
  index: number;
}

/** Main thread -> I/O worker control messages. */
export type IoControlMessage = { t: 'vu'; vuId: number; port: MessagePort } | { t: 'close' };
/** I/O worker -> main thread. */
export type IoStatusMessage = { t: 'ready' } | { t: 'closed' };
