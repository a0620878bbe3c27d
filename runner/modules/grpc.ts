// k6/net/grpc (docs: javascript-api/k6-net-grpc): Client with load(), connect(), invoke(), asyncInvoke() and close(),
// unary calls over @grpc/grpc-js, the Status constants, and grpc_req_duration with k6's tags. The connections live in
// a gRPC I/O worker (runner/grpc-io.worker.ts); connect() and invoke() block this VU's thread on its signal word as a
// sync HTTP request does, so the hosting analysis gives such scripts a thread per VU.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type * as ProtoLoader from '@grpc/proto-loader';
import { parseDuration } from '../../core/durations';
import { workerUrl } from '../../core/worker-url';
import type { GrpcCommand, GrpcReply, ProtoSource } from '../grpc/wire';
import { requireCjs } from '../require-cjs';
import type { VuRuntime } from '../vu/runtime';
import { SIGNAL_WAKE } from './module-host';

const STATUS = {
  StatusOK: 0,
  StatusCanceled: 1,
  StatusUnknown: 2,
  StatusInvalidArgument: 3,
  StatusDeadlineExceeded: 4,
  StatusNotFound: 5,
  StatusAlreadyExists: 6,
  StatusPermissionDenied: 7,
  StatusResourceExhausted: 8,
  StatusFailedPrecondition: 9,
  StatusAborted: 10,
  StatusOutOfRange: 11,
  StatusUnimplemented: 12,
  StatusInternal: 13,
  StatusUnavailable: 14,
  StatusDataLoss: 15,
  StatusUnauthenticated: 16,
} as const;

/** k6's serving-status constants for healthCheck() (grpc.health.v1's enum; "Unkown" is k6's spelling). */
const HEALTH_STATUS = {
  HealthCheckUnknown: 0,
  HealthCheckServing: 1,
  HealthCheckNotServing: 2,
  HealthCheckServiceUnkown: 3,
} as const;

/** grpc-go's name of a status code, as its error text gives it ("Unimplemented"). */
function codeName(code: number): string {
  const found = Object.entries(STATUS).find(([, value]) => value === code);
  return found ? found[0].slice('Status'.length) : `Code(${code})`;
}

/** What Client.load() returns: one entry per method of the loaded services. */
function methodList(definition: ProtoLoader.PackageDefinition): unknown[] {
  const methods: unknown[] = [];
  for (const value of Object.values(definition)) {
    if (!value || typeof value !== 'object' || 'format' in value) continue;
    for (const m of Object.values(value as ProtoLoader.ServiceDefinition))
      methods.push({
        name: m.originalName ?? m.path.split('/').pop(),
        path: m.path,
        requestStream: m.requestStream,
        responseStream: m.responseStream,
      });
  }
  return methods;
}

type InvokeCommand = Extract<GrpcCommand, { t: 'invoke' }> & { tags: Record<string, string> };

function timeoutOf(value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  return parseDuration(value);
}

export function createGrpcModule(rt: VuRuntime): Record<string, unknown> {
  let io: { port: MessagePort } | undefined;
  const pending = new Map<number, (reply: GrpcReply) => void>();
  let nextId = 1;
  let nextClient = 1;
  /** Open streams' event handlers by stream id (stream events keep coming until its end or error). */
  const streamEvents = new Map<number, (reply: GrpcReply) => void>();
  const deliver = (reply: GrpcReply) => {
    if (reply.t === 'stream-data' || reply.t === 'stream-end' || reply.t === 'stream-error') {
      streamEvents.get(reply.id)?.(reply);
      return;
    }
    const done = pending.get(reply.id);
    pending.delete(reply.id);
    done?.(reply);
  };
  const port = () => {
    if (!io) {
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(workerUrl('grpc-io.worker'), {
        workerData: { port: port2, signal: rt.signal },
        transferList: [port2],
      });
      worker.unref();
      port1.on('message', deliver);
      port1.unref();
      io = { port: port1 };
    }
    return io.port;
  };
  const send = (command: GrpcCommand): number => {
    port().postMessage(command);
    return command.id;
  };
  /** Sends and blocks this thread until the reply; replies of async calls that arrive meanwhile are delivered. */
  const call = (command: GrpcCommand): GrpcReply => {
    if (rt.hosted) throw rt.blockingError(`grpc Client.${command.t}()`);
    let answer: GrpcReply | undefined;
    pending.set(command.id, (reply) => {
      answer = reply;
    });
    const p = port();
    send(command);
    while (!answer) {
      Atomics.store(rt.signal, SIGNAL_WAKE, 0);
      for (let m = receiveMessageOnPort(p); m; m = receiveMessageOnPort(p)) deliver(m.message as GrpcReply);
      if (answer) break;
      rt.throwIfInterrupted();
      Atomics.wait(rt.signal, SIGNAL_WAKE, 0, 1000);
    }
    return answer;
  };

  class Client {
    readonly #id = nextClient++;
    #protos: ProtoSource[] = [];
    #address = '';
    #connected = false;

    load(importPaths: unknown, ...files: unknown[]): unknown[] {
      if (!rt.inInitContext()) throw new Error('load() can only be called in the init context');
      const dirs = (Array.isArray(importPaths) ? importPaths : importPaths ? [importPaths] : []).map((d) =>
        resolve(rt.data.scriptDir, String(d)),
      );
      if (dirs.length === 0) dirs.push(rt.data.scriptDir);
      const source = { importPaths: dirs, files: files.map(String) };
      // Parsed here too, as k6 parses them in load(): a missing or broken file fails the init code.
      const loader = requireCjs('@grpc/proto-loader') as typeof ProtoLoader;
      const definition = loader.loadSync(source.files, { includeDirs: source.importPaths });
      this.#protos.push(source);
      return methodList(definition);
    }

    /** A FileDescriptorSet file (protoc --descriptor_set_out), read and parsed at init as k6 does. */
    loadProtoset(path: unknown): unknown[] {
      if (!rt.inInitContext()) throw new Error('loadProtoset() can only be called in the init context');
      const bytes = new Uint8Array(readFileSync(resolve(rt.data.scriptDir, String(path))));
      const loader = requireCjs('@grpc/proto-loader') as typeof ProtoLoader;
      const definition = loader.loadFileDescriptorSetFromBuffer(Buffer.from(bytes));
      this.#protos.push({ protoset: bytes });
      return methodList(definition);
    }

    connect(address: unknown, params?: unknown): boolean {
      if (rt.inInitContext())
        throw new Error('connecting to a gRPC server in the init context is not supported');
      const p = (params ?? {}) as {
        plaintext?: unknown;
        timeout?: unknown;
        reflect?: unknown;
        authority?: unknown;
      };
      this.#address = String(address);
      const reply = call({
        t: 'connect',
        id: nextId++,
        client: this.#id,
        address: this.#address,
        plaintext: p.plaintext === true,
        timeoutMs: timeoutOf(p.timeout, 60_000),
        insecure: rt.httpOptions.insecureSkipTLSVerify,
        protos: this.#protos,
        authority: typeof p.authority === 'string' ? p.authority : undefined,
        reflect: p.reflect === true,
      });
      if (reply.t === 'connected' && reply.error) throw new Error(reply.error);
      this.#connected = true;
      return true;
    }

    /** What a Stream of this client needs: its id and the invoke command shape (tags, metadata, timeout). */
    streamCommand(method: unknown, params: unknown): InvokeCommand & { client: number } {
      return this.#command(method, {}, params);
    }

    #command(method: unknown, request: unknown, params: unknown): InvokeCommand {
      if (rt.inInitContext()) throw new Error('invoking RPC methods in the init context is not supported');
      if (!this.#connected) throw new Error('no gRPC connection, you must call connect first');
      let path = String(method);
      if (path === '') throw new Error('method to invoke cannot be empty');
      if (!path.startsWith('/')) path = `/${path}`;
      const p = (params ?? {}) as {
        metadata?: Record<string, unknown>;
        tags?: Record<string, unknown>;
        timeout?: unknown;
      };
      const metadata: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(p.metadata ?? {}))
        metadata[k] = Array.isArray(v) ? v.map(String) : String(v);
      const userTags = Object.fromEntries(Object.entries(p.tags ?? {}).map(([k, v]) => [k, String(v)]));
      const [service, name] = path.slice(1).split('/');
      const tags: Record<string, string> = { ...rt.tags(), ...userTags };
      const on = new Set(rt.httpOptions.systemTags);
      if (on.has('url')) tags.url = `${this.#address}${path}`;
      if (on.has('service')) tags.service = service ?? '';
      if (on.has('method')) tags.method = name ?? '';
      if (on.has('name') && userTags.name === undefined) tags.name = path;
      return {
        t: 'invoke',
        id: nextId++,
        client: this.#id,
        method: path,
        request: JSON.parse(JSON.stringify(request ?? {})),
        metadata,
        timeoutMs: timeoutOf(p.timeout, 60_000),
        tags,
      };
    }

    #response(reply: GrpcReply, tags: Record<string, string>): Record<string, unknown> {
      if (reply.t !== 'response') throw new Error('unexpected reply from the gRPC worker');
      if (rt.httpOptions.systemTags.includes('status')) tags.status = String(reply.status);
      rt.emit([
        {
          metric: 'grpc_req_duration',
          time: reply.end,
          value: reply.end - reply.start,
          tags,
          metadata: rt.metadata(),
        },
      ]);
      return {
        status: reply.status,
        message: reply.message,
        headers: reply.headers,
        trailers: reply.trailers,
        error: reply.error ?? null,
      };
    }

    invoke(method: unknown, request: unknown, params?: unknown): Record<string, unknown> {
      const { tags, ...command } = this.#command(method, request, params);
      return this.#response(call(command), tags);
    }

    asyncInvoke(method: unknown, request: unknown, params?: unknown): Promise<Record<string, unknown>> {
      let command: InvokeCommand;
      try {
        command = this.#command(method, request, params);
      } catch (error) {
        return Promise.reject(error);
      }
      const { tags, ...wire } = command;
      const reply = new Promise<GrpcReply>((done) => pending.set(wire.id, done));
      send(wire);
      return rt.track(reply.then((r) => this.#response(r, tags)));
    }

    close(): void {
      if (!this.#connected) return;
      this.#connected = false;
      send({ t: 'close', id: nextId++, client: this.#id });
    }

    /**
     * k6's healthCheck([service]): grpc.health.v1.Health/Check on this connection, answered as {status} with the
     * serving status' number (grpc.HealthCheckServing...); a failed call throws grpc-go's error text, and its
     * grpc_req_duration carries only the VU's tags and the status, as k6's stats handler gives a call it did not tag.
     */
    healthCheck(service?: unknown): Record<string, unknown> {
      const request = service === undefined || service === null ? {} : { service: String(service) };
      const { tags: _callTags, ...command } = this.#command(
        'grpc.health.v1.Health/Check',
        request,
        undefined,
      );
      const reply = this.#response(call({ ...command, health: true }), { ...rt.tags() });
      const error = reply.error as { code: number; message: string } | null;
      if (error) throw new Error(`rpc error: code = ${codeName(error.code)} desc = ${error.message}`);
      return { status: (reply.message as { status: number }).status };
    }
  }

  /** k6's grpc.Stream: client, server and bidirectional streaming, with its data, end and error events. */
  class Stream {
    readonly #id: number;
    readonly #tags: Record<string, string>;
    #handlers = new Map<string, Array<(...args: unknown[]) => unknown>>();
    #open = true;

    constructor(client: unknown, method: unknown, params?: unknown) {
      if (!(client instanceof Client)) throw new Error('a Stream needs a connected grpc.Client');
      const command = client.streamCommand(method, params);
      this.#id = command.id;
      this.#tags = command.tags;
      const metadata = rt.metadata();
      let finished: () => void = () => {};
      rt.track(
        new Promise<void>((resolve) => {
          finished = resolve;
        }),
      );
      streamEvents.set(this.#id, (reply) => {
        if (reply.t === 'stream-data') {
          rt.emit([
            { metric: 'grpc_streams_msgs_received', time: Date.now(), value: 1, tags: this.#tags, metadata },
          ]);
          this.#fire('data', reply.message);
          return;
        }
        streamEvents.delete(this.#id);
        this.#open = false;
        if (reply.t === 'stream-error')
          this.#fire('error', { code: reply.code, message: reply.message, details: [] });
        else this.#fire('end');
        finished();
      });
      send({
        t: 'stream-open',
        id: this.#id,
        client: command.client,
        method: command.method,
        metadata: command.metadata,
        timeoutMs: params && (params as { timeout?: unknown }).timeout !== undefined ? command.timeoutMs : 0,
      });
      rt.emit([{ metric: 'grpc_streams', time: Date.now(), value: 1, tags: this.#tags, metadata }]);
    }

    #fire(event: string, ...args: unknown[]): void {
      for (const handler of this.#handlers.get(event) ?? []) handler.apply(this, args);
    }

    on(event: unknown, handler: unknown): void {
      if (typeof handler !== 'function')
        throw new Error(`handler for "${String(event)}" event isn't a callable function`);
      this.#handlers.set(String(event), [
        ...(this.#handlers.get(String(event)) ?? []),
        handler as (...args: unknown[]) => unknown,
      ]);
    }

    write(message: unknown): void {
      if (!this.#open) return;
      send({ t: 'stream-write', id: this.#id, message: JSON.parse(JSON.stringify(message ?? {})) });
      rt.emit([
        {
          metric: 'grpc_streams_msgs_sent',
          time: Date.now(),
          value: 1,
          tags: this.#tags,
          metadata: rt.metadata(),
        },
      ]);
    }

    end(): void {
      if (this.#open) send({ t: 'stream-end', id: this.#id });
    }
  }

  const members = { Client, Stream, ...STATUS, ...HEALTH_STATUS };
  return { ...members, default: members };
}
