// Connection-level facts undici does not hand to a dispatch handler: when each socket's TCP connect and TLS handshake
// started and ended, and which socket a request was written to. Runs in the HTTP I/O worker only.
import { subscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { undici } from './undici';

/** Per-socket connection timings (performance.now() milliseconds). */
export interface SocketFacts {
  connectStart: number;
  /** TCP connected. */
  tcpEnd: number;
  /** Ready for requests: TCP connected (plain) or TLS handshake done. */
  readyEnd: number;
  tls: boolean;
  /** Becomes true once a request has been attributed the connect/TLS phases (later requests reuse it: 0 ms). */
  claimed: boolean;
  /** Socket byte counters already attributed to finished exchanges. */
  countedWritten: number;
  countedRead: number;
  /** The first chunk read since the current request was written (see watchResponseHead). */
  head: Buffer | undefined;
  awaitingHead: boolean;
}

const facts = new WeakMap<Socket, SocketFacts>();
let connected: Socket | undefined;

/** The socket whose connection undici is setting up right now (valid inside a Client 'connect' listener). */
export function justConnectedSocket(): Socket | undefined {
  return connected;
}

export function socketFacts(socket: Socket): SocketFacts | undefined {
  return facts.get(socket);
}

/** Wraps undici's own connector so each new socket records its connect and TLS phases. */
export function timedConnector(options: buildConnector.BuildOptions): buildConnector.connector {
  const base = undici().buildConnector(options);
  return (opts, callback) => {
    const record: SocketFacts = {
      connectStart: performance.now(),
      tcpEnd: 0,
      readyEnd: 0,
      tls: opts.protocol === 'https:',
      claimed: false,
      countedWritten: 0,
      countedRead: 0,
      head: undefined,
      awaitingHead: false,
    };
    // undici's connector returns the socket it creates, although its type says void.
    const socket = base(opts, (err, sock) => {
      record.readyEnd = performance.now();
      if (record.tcpEnd === 0) record.tcpEnd = record.readyEnd;
      if (err) {
        callback(err, null);
        return;
      }
      // undici sets the connection up and emits the client's 'connect' event synchronously inside this call.
      connected = sock ?? undefined;
      try {
        callback(null, sock as NonNullable<typeof sock>);
      } finally {
        connected = undefined;
      }
    }) as unknown as Socket;
    // A TLSSocket created by tls.connect emits 'connect' when TCP is up, then 'secureConnect' after the handshake.
    socket.once('connect', () => {
      record.tcpEnd = performance.now();
    });
    keepResponseHeads(socket, record);
    facts.set(socket, record);
    return socket;
  };
}

/**
 * undici's HTTP/1.1 parser pulls the socket with read() (paused mode, so a 'data' listener would break it): wrapping
 * read lets the exchange keep the first chunk of its response, the bytes Go's error texts quote when a server
 * answers garbage. One property test per chunk; the chunk is only referenced, never copied.
 */
function keepResponseHeads(socket: Socket, record: SocketFacts): void {
  const read = socket.read;
  socket.read = function readKeepingHead(this: Socket, size?: number) {
    const chunk = read.call(this, size) as Buffer | null;
    if (chunk && record.awaitingHead) {
      record.awaitingHead = false;
      record.head = chunk;
    }
    return chunk;
  };
}

/** From now on, the socket's next chunk is kept as the response head (call when a request has been written). */
export function watchResponseHead(socket: Socket): void {
  const record = facts.get(socket);
  if (!record) return;
  record.head = undefined;
  record.awaitingHead = true;
}

/** The first chunk of the current response (undefined when none arrived yet), released once the head parsed. */
export function responseHead(socket: Socket | undefined, release = false): Buffer | undefined {
  const record = socket ? facts.get(socket) : undefined;
  if (!record) return undefined;
  const head = record.head;
  if (release) {
    record.head = undefined;
    record.awaitingHead = false;
  }
  return head;
}

/**
 * The bytes a finishing exchange accounts for: everything the socket moved since the previous exchange finished
 * (so connect and TLS bytes land on the first request, and concurrent HTTP/2 streams never count a byte twice).
 */
export function takeSocketBytes(socket: Socket | undefined): { sentBytes: number; receivedBytes: number } {
  const record = socket ? facts.get(socket) : undefined;
  if (!socket || !record) return { sentBytes: 0, receivedBytes: 0 };
  const written = socket.bytesWritten;
  const read = socket.bytesRead;
  const out = { sentBytes: written - record.countedWritten, receivedBytes: read - record.countedRead };
  record.countedWritten = written;
  record.countedRead = read;
  return out;
}

/** Receives the socket a request is being written to. */
export interface SocketListener {
  onSocket(socket: Socket, headerBytes: number): void;
}

// undici calls handler.onConnect(abort) and, synchronously in the same function, publishes `sendHeaders` with the
// socket: the handler registers itself in onConnect and this subscriber hands it the socket.
let awaitingSocket: SocketListener | undefined;
let subscribed = false;

export function expectSocketFor(listener: SocketListener): void {
  if (!subscribed) {
    subscribed = true;
    subscribe('undici:client:sendHeaders', (message) => {
      const { socket, headers } = message as { socket: Socket; headers: string };
      const listener = awaitingSocket;
      awaitingSocket = undefined;
      listener?.onSocket(socket, headers.length);
    });
  }
  awaitingSocket = listener;
}
