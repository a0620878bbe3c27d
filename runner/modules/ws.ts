// k6/ws: the blocking ws.connect(url, params, callback) API (docs: javascript-api/k6-ws). connect() returns only when
// the connection has closed, running the script's handlers and socket timers meanwhile: the socket lives in a
// WebSocket I/O worker (runner/ws-io.worker.ts) and this thread waits on the VU's signal word between its events, as
// a sync HTTP request waits. VUs sharing a thread cannot block it, so the hosting analysis gives such scripts a
// thread per VU (runner/script/hosting.ts).
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { workerUrl } from '../../core/worker-url';
import type { SampleInput } from '../metrics/sample';
import type { VuRuntime } from '../vu/runtime';
import type { WsCommand, WsEvent } from '../ws/wire';
import { isArrayBuffer } from './cross-realm';
import { SIGNAL_WAKE } from './module-host';

type Handler = (...args: unknown[]) => unknown;

interface Timer {
  fn: Handler;
  due: number;
  every: number;
}

class WsResponse {
  constructor(
    readonly url: string,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string,
    readonly error: string,
  ) {}
}

export function createWsModule(rt: VuRuntime): Record<string, unknown> {
  let io: { worker: Worker; port: MessagePort } | undefined;
  const ioWorker = () => {
    if (!io) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(workerUrl('ws-io.worker'), {
        workerData: { port: port2, signal: rt.signal },
        transferList: [port2],
      });
      worker.unref();
      port1.unref();
      io = { worker, port: port1 };
    }
    return io;
  };

  function connect(url: unknown, ...args: unknown[]): WsResponse {
    if (rt.inInitContext()) throw new Error('using websockets in the init context is not supported');
    if (rt.hosted) throw rt.blockingError('ws.connect()');
    if (args.length < 1 || args.length > 2) throw new Error('invalid number of arguments to ws.connect');
    const setup = args[args.length - 1];
    if (typeof setup !== 'function') throw new Error('last argument to ws.connect must be a function');
    const params = (args.length === 2 ? (args[0] ?? {}) : {}) as {
      headers?: Record<string, unknown>;
      tags?: Record<string, unknown>;
      compression?: unknown;
    };
    if (params.compression !== undefined && params.compression !== '' && params.compression !== 'deflate')
      throw new Error(
        `unsupported compression algorithm '${String(params.compression)}', supported algorithm is 'deflate'`,
      );
    const target = String(url);
    const tags: Record<string, string> = {
      ...rt.tags(),
      ...Object.fromEntries(Object.entries(params.tags ?? {}).map(([k, v]) => [k, String(v)])),
      url: target,
    };
    const { port } = ioWorker();
    // Events a previous connection left behind (it ended by an exception before its close arrived).
    while (receiveMessageOnPort(port));
    const command = (c: WsCommand) => port.postMessage(c);
    const handlers = new Map<string, Handler[]>();
    const timers: Timer[] = [];
    let closed = false;
    let opened = false;
    let started = 0;
    const metadata = rt.metadata();
    const emit = (samples: SampleInput[]) => rt.emit(samples.map((s) => ({ ...s, metadata })));
    const fire = (event: string, ...values: unknown[]) => {
      for (const h of handlers.get(event) ?? []) h.apply(socket, values);
    };
    const socket = {
      on(event: unknown, handler: unknown) {
        if (typeof handler !== 'function') throw new Error('the handler must be a function');
        handlers.set(String(event), [...(handlers.get(String(event)) ?? []), handler as Handler]);
      },
      send(data: unknown) {
        if (closed) return;
        command({ t: 'send', data: String(data) });
        emit([{ metric: 'ws_msgs_sent', time: Date.now(), value: 1, tags }]);
      },
      sendBinary(data: unknown) {
        if (data === undefined) throw new Error('missing argument, expected ArrayBuffer');
        if (!isArrayBuffer(data))
          throw new Error(`expected ArrayBuffer as argument, received: ${typeof data}`);
        if (closed) return;
        command({ t: 'send', data: new Uint8Array(data).slice().buffer });
        emit([{ metric: 'ws_msgs_sent', time: Date.now(), value: 1, tags }]);
      },
      ping() {
        pingSent.push(performance.now());
        command({ t: 'ping' });
      },
      close(code?: unknown) {
        if (!closed) command({ t: 'close', code: typeof code === 'number' ? code : 1001 });
      },
      setTimeout(fn: unknown, ms: unknown) {
        if (typeof fn !== 'function') throw new Error('setTimeout requires a function');
        const wait = Number(ms);
        if (!(wait > 0))
          throw new Error(`setTimeout requires a >0 timeout parameter, received ${wait.toFixed(2)}`);
        timers.push({ fn: fn as Handler, due: performance.now() + wait, every: 0 });
      },
      setInterval(fn: unknown, ms: unknown) {
        if (typeof fn !== 'function') throw new Error('setInterval requires a function');
        const every = Number(ms);
        if (!(every > 0))
          throw new Error(`setInterval requires a >0 timeout parameter, received ${every.toFixed(2)}`);
        timers.push({ fn: fn as Handler, due: performance.now() + every, every });
      },
    };
    const pingSent: number[] = [];
    let response = new WsResponse(target, 0, {}, '', '');

    const handle = (event: WsEvent): void => {
      switch (event.t) {
        case 'handshake': {
          started = event.start;
          if (rt.httpOptions.systemTags.includes('status')) tags.status = String(event.status);
          if (rt.httpOptions.systemTags.includes('subproto'))
            tags.subproto = event.headers['sec-websocket-protocol'] ?? '';
          response = new WsResponse(target, event.status, event.headers, event.body, '');
          emit([
            { metric: 'ws_sessions', time: event.start, value: 1, tags },
            { metric: 'ws_connecting', time: event.start, value: event.connectingMs, tags },
          ]);
          return;
        }
        case 'open':
          opened = true;
          setup.call(undefined, socket);
          fire('open');
          return;
        case 'message':
          emit([{ metric: 'ws_msgs_received', time: Date.now(), value: 1, tags }]);
          fire(event.binary ? 'binaryMessage' : 'message', event.data);
          return;
        case 'ping':
          fire('ping');
          return;
        case 'pong': {
          const sent = pingSent.shift();
          if (sent !== undefined)
            emit([{ metric: 'ws_ping', time: Date.now(), value: performance.now() - sent, tags }]);
          fire('pong');
          return;
        }
        case 'error':
          if (!opened)
            response = new WsResponse(
              target,
              response.status,
              response.headers,
              response.body,
              event.message,
            );
          fire('error', { error: () => event.message, message: event.message });
          return;
        case 'close':
          closed = true;
          rt.countData(event.sent, event.received);
          if (opened) {
            emit([{ metric: 'ws_session_duration', time: Date.now(), value: Date.now() - started, tags }]);
            fire('close', event.code);
          }
          return;
      }
    };

    command({
      t: 'open',
      url: target,
      protocols: [],
      headers: Object.fromEntries(Object.entries(params.headers ?? {}).map(([k, v]) => [k, String(v)])),
      compression: params.compression === 'deflate',
      insecure: rt.httpOptions.insecureSkipTLSVerify,
      tls: { ...rt.httpOptions.tls },
    });
    try {
      while (!closed) {
        Atomics.store(rt.signal, SIGNAL_WAKE, 0);
        for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
          handle(m.message as WsEvent);
          if (closed) break;
        }
        if (closed) break;
        const now = performance.now();
        for (const timer of [...timers]) {
          if (timer.due > now || closed) continue;
          if (timer.every > 0) timer.due += timer.every;
          else timers.splice(timers.indexOf(timer), 1);
          timer.fn.call(socket);
        }
        rt.throwIfInterrupted();
        const next = Math.min(...timers.map((t) => t.due));
        const wait = Number.isFinite(next) ? Math.max(0, next - performance.now()) : 1000;
        Atomics.wait(rt.signal, SIGNAL_WAKE, 0, wait);
      }
    } catch (error) {
      // A throwing handler or an interruption ends the connection before the error goes on.
      if (!closed) command({ t: 'close', code: 1001 });
      throw error;
    }
    if (response.error && rt.httpOptions.throw) throw new Error(response.error);
    return response;
  }

  const members = { connect };
  return { ...members, default: members };
}
