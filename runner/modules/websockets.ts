// k6/websockets (and the deprecated k6/experimental/websockets): the browser-like WebSocket of k6 docs
// javascript-api/k6-websockets, over the `ws` library, with k6's ws_* metrics and tags. An open socket keeps the
// iteration running (it is event-loop work, as in k6) until it closes; an interruption closes it.
import { Blob } from 'node:buffer';
import { types } from 'node:util';
import type { RawData, WebSocket as WsSocket } from 'ws';
import type { SampleInput } from '../metrics/sample';
import { requireCjs } from '../require-cjs';
import type { VuRuntime } from '../vu/runtime';
import { scriptStack } from '../vu/script-stack';

type WsModule = typeof import('ws');
let wsModule: WsModule | undefined;
const loadWs = () => {
  wsModule ??= requireCjs('ws') as WsModule;
  return wsModule;
};

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

type Listener = (event: Record<string, unknown>) => unknown;
const EVENTS = ['open', 'message', 'error', 'close', 'ping', 'pong'] as const;

/** What send() sends now: a string, an ArrayBuffer (of any realm) or a view of one; undefined for anything else. */
function payloadOf(data: unknown): string | Buffer | undefined {
  if (typeof data === 'string') return data;
  if (types.isArrayBuffer(data)) return Buffer.from(data);
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return undefined;
}

export function createWebSocketsModule(rt: VuRuntime, deprecated: boolean): Record<string, unknown> {
  if (deprecated)
    rt.log(
      'warn',
      'k6/experimental/websockets is deprecated and will be removed in a future release. Please use k6/websockets instead.',
    );
  const open = new Set<WsSocket>();
  rt.onInterrupt(() => {
    for (const s of open) s.terminate();
  });

  class WebSocket {
    static readonly CONNECTING = CONNECTING;
    static readonly OPEN = OPEN;
    static readonly CLOSING = CLOSING;
    static readonly CLOSED = CLOSED;
    readonly url: string;
    protocol = '';
    extensions = '';
    bufferedAmount = 0;
    #readyState = CONNECTING;
    #binaryType = 'blob';
    #listeners = new Map<string, Listener[]>();
    #socket: WsSocket;
    #tags: Record<string, string>;
    #started: number;
    #pings = new Map<string, number>();
    #nextPing = 0;
    onopen: Listener | null = null;
    onmessage: Listener | null = null;
    onerror: Listener | null = null;
    onclose: Listener | null = null;
    onping: Listener | null = null;
    onpong: Listener | null = null;

    constructor(url: unknown, protocols?: unknown, params?: unknown) {
      if (rt.inInitContext())
        throw new Error('Making WebSocket connections in the init context is not supported');
      this.url = String(url);
      const p = (params ?? {}) as {
        headers?: Record<string, unknown>;
        tags?: Record<string, unknown>;
        compression?: unknown;
      };
      if (p.compression !== undefined && p.compression !== '' && p.compression !== 'deflate')
        throw new Error(
          `unsupported compression algorithm '${String(p.compression)}', supported algorithm is 'deflate'`,
        );
      const userTags = Object.fromEntries(Object.entries(p.tags ?? {}).map(([k, v]) => [k, String(v)]));
      this.#tags = { ...rt.tags(), ...userTags };
      const named = userTags.name;
      this.#tags.url = named ?? this.url;
      if (named === undefined) this.#tags.name = this.url;
      const headers = Object.fromEntries(Object.entries(p.headers ?? {}).map(([k, v]) => [k, String(v)]));
      const list =
        protocols === undefined || protocols === null
          ? []
          : Array.isArray(protocols)
            ? protocols
            : [protocols];
      this.#started = Date.now();
      const startedAt = performance.now();
      const Ws = loadWs().WebSocket;
      this.#socket = new Ws(this.url, list.map(String), {
        headers,
        perMessageDeflate: p.compression === 'deflate',
        rejectUnauthorized: !rt.httpOptions.insecureSkipTLSVerify,
        ...rt.httpOptions.tls,
      });
      const socket = this.#socket;
      open.add(socket);
      let resolveClosed: () => void = () => {};
      rt.track(
        new Promise<void>((resolve) => {
          resolveClosed = resolve;
        }),
      );
      const connected = (status: number, subprotocol: unknown) => {
        this.#tags.status = String(status);
        this.#tags.subproto = typeof subprotocol === 'string' ? subprotocol : '';
        this.emit([
          { metric: 'ws_sessions', time: this.#started, value: 1, tags: { ...this.#tags } },
          {
            metric: 'ws_connecting',
            time: this.#started,
            value: performance.now() - startedAt,
            tags: { ...this.#tags },
          },
        ]);
      };
      socket.on('upgrade', (response) =>
        connected(response.statusCode ?? 101, response.headers['sec-websocket-protocol']),
      );
      socket.on('unexpected-response', (_request, response) => {
        connected(response.statusCode ?? 0, undefined);
        this.dispatch('error', { error: `websocket: bad handshake (status ${response.statusCode})` });
        socket.terminate();
      });
      socket.on('open', () => {
        this.#readyState = OPEN;
        this.protocol = socket.protocol ?? '';
        this.extensions = socket.extensions ?? '';
        this.dispatch('open', {});
      });
      socket.on('message', (data: RawData, isBinary: boolean) => {
        if (this.#readyState !== OPEN) return;
        this.emit([{ metric: 'ws_msgs_received', time: Date.now(), value: 1, tags: { ...this.#tags } }]);
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        let payload: unknown = bytes.toString('utf8');
        if (isBinary) {
          const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
          payload = this.#binaryType === 'arraybuffer' ? ab : new Blob([bytes]);
        }
        this.dispatch('message', { data: payload, origin: this.url });
      });
      socket.on('ping', () => this.dispatch('ping', {}));
      socket.on('pong', (data: Buffer) => {
        const sent = this.#pings.get(data.toString());
        if (sent !== undefined) {
          this.#pings.delete(data.toString());
          this.emit([
            { metric: 'ws_ping', time: Date.now(), value: performance.now() - sent, tags: { ...this.#tags } },
          ]);
        }
        this.dispatch('pong', {});
      });
      socket.on('error', (error: Error) => {
        this.dispatch('error', { error: error.message });
      });
      socket.on('close', (code: number, reason: Buffer) => {
        const wasOpen = this.#readyState === OPEN || this.#readyState === CLOSING;
        this.#readyState = CLOSED;
        open.delete(socket);
        const raw = socket as unknown as { _socket?: { bytesWritten?: number; bytesRead?: number } };
        rt.countData(raw._socket?.bytesWritten ?? 0, raw._socket?.bytesRead ?? 0);
        if (wasOpen)
          this.emit([
            {
              metric: 'ws_session_duration',
              time: Date.now(),
              value: Date.now() - this.#started,
              tags: { ...this.#tags },
            },
          ]);
        this.dispatch('close', { code, reason: reason.toString() });
        resolveClosed();
      });
    }

    private emit(samples: SampleInput[]): void {
      const metadata = rt.metadata();
      rt.emit(samples.map((s) => ({ ...s, metadata })));
    }

    private dispatch(type: string, fields: Record<string, unknown>): void {
      const event = { type, timestamp: Date.now(), target: this, ...fields };
      const handlers = [...(this.#listeners.get(type) ?? [])];
      const own = (this as unknown as Record<string, unknown>)[`on${type}`];
      if (typeof own === 'function') handlers.unshift(own as Listener);
      for (const handler of handlers) {
        try {
          handler.call(this, event);
        } catch (error) {
          // A throwing handler is the script's error (logged as an iteration's), and ends the connection, as in k6.
          rt.log('error', scriptStack(error), { source: 'stacktrace' });
          this.#socket.terminate();
        }
      }
    }

    get readyState(): number {
      return this.#readyState;
    }

    get binaryType(): string {
      return this.#binaryType;
    }

    set binaryType(value: string) {
      if (value !== 'blob' && value !== 'arraybuffer')
        throw new Error(`unknown binaryType ${value}, the supported ones are "blob" and "arraybuffer"`);
      this.#binaryType = value;
    }

    addEventListener(type: string, listener: unknown): void {
      if (!(EVENTS as readonly string[]).includes(type)) throw new Error(`unknown event type: ${type}`);
      if (typeof listener !== 'function') throw new Error('the listener must be a function');
      this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener as Listener]);
    }

    send(data: unknown): void {
      if (this.#readyState !== OPEN) throw new Error('InvalidStateError: the socket is not open');
      const socket = this.#socket;
      const sendNow = (payload: string | Buffer) => {
        socket.send(payload, { binary: typeof payload !== 'string' });
        this.emit([{ metric: 'ws_msgs_sent', time: Date.now(), value: 1, tags: { ...this.#tags } }]);
      };
      const payload = payloadOf(data);
      if (payload !== undefined) sendNow(payload);
      else if (data instanceof Blob) rt.track(data.arrayBuffer().then((ab) => sendNow(Buffer.from(ab))));
      else throw new TypeError('send() takes a string, an ArrayBuffer, an ArrayBufferView or a Blob');
    }

    ping(): void {
      if (this.#readyState !== OPEN) return;
      const id = String(this.#nextPing++);
      this.#pings.set(id, performance.now());
      this.#socket.ping(id);
    }

    close(code?: number, reason?: string): void {
      if (this.#readyState === CLOSED || this.#readyState === CLOSING) return;
      this.#readyState = CLOSING;
      this.#socket.close(code ?? 1000, reason ?? '');
    }
  }

  const members = { WebSocket, Blob };
  return { ...members, default: members };
}
