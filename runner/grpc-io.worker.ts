// Entry of a k6/net/grpc I/O worker: the gRPC connections of one VU's clients (@grpc/grpc-js), served while the VU's
// thread blocks in connect() and invoke() (runner/modules/grpc.ts) or awaits asyncInvoke(). Each reply is posted to
// the VU's port, then the VU's signal word is set and notified.
import { type MessagePort, workerData } from 'node:worker_threads';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { GrpcCommand, GrpcReply, ProtoSource } from './grpc/wire';
import { SIGNAL_WAKE } from './modules/module-host';

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

function post(reply: GrpcReply): void {
  port.postMessage(reply);
  Atomics.store(signal, SIGNAL_WAKE, 1);
  Atomics.notify(signal, SIGNAL_WAKE);
}

interface Conn {
  client: grpc.Client;
  methods: Map<string, protoLoader.MethodDefinition<object, object>>;
}

const conns = new Map<number, Conn>();

/** k6's JSON mapping of messages: protojson (lowerCamelCase names, int64 and bytes as strings, defaults emitted). */
const LOAD_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  bytes: String,
  defaults: true,
  oneofs: true,
};

function methodsOf(protos: ProtoSource[]): Map<string, protoLoader.MethodDefinition<object, object>> {
  const methods = new Map<string, protoLoader.MethodDefinition<object, object>>();
  for (const { importPaths, files } of protos) {
    const definition = protoLoader.loadSync(files, { ...LOAD_OPTIONS, includeDirs: importPaths });
    for (const value of Object.values(definition)) {
      if (!value || typeof value !== 'object' || 'format' in value) continue;
      for (const method of Object.values(value as protoLoader.ServiceDefinition))
        methods.set(method.path, method);
    }
  }
  return methods;
}

function metadataRecord(md: grpc.Metadata | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(md?.getMap() ?? {})) out[key] = [String(values)];
  return out;
}

function handle(command: GrpcCommand): void {
  switch (command.t) {
    case 'connect': {
      try {
        const credentials = command.plaintext
          ? grpc.credentials.createInsecure()
          : grpc.credentials.createSsl(
              null,
              null,
              null,
              command.insecure ? { checkServerIdentity: () => undefined } : {},
            );
        const options: grpc.ChannelOptions = command.authority
          ? { 'grpc.default_authority': command.authority }
          : {};
        const client = new grpc.Client(command.address, credentials, options);
        const methods = methodsOf(command.protos);
        client.waitForReady(Date.now() + command.timeoutMs, (error) => {
          if (error) {
            client.close();
            post({
              t: 'connected',
              id: command.id,
              error: `failed to connect to ${command.address}: ${error.message}`,
            });
            return;
          }
          conns.get(command.client)?.client.close();
          conns.set(command.client, { client, methods });
          post({ t: 'connected', id: command.id });
        });
      } catch (error) {
        post({ t: 'connected', id: command.id, error: (error as Error).message });
      }
      return;
    }
    case 'invoke': {
      const conn = conns.get(command.client);
      const method = conn?.methods.get(command.method);
      const start = Date.now();
      const fail = (code: number, message: string) =>
        post({
          t: 'response',
          id: command.id,
          status: code,
          message: null,
          headers: {},
          trailers: {},
          error: { code, message, details: [] },
          start,
          end: Date.now(),
        });
      if (!conn || !method) {
        fail(
          grpc.status.UNIMPLEMENTED,
          conn
            ? `method "${command.method}" not found in file descriptors`
            : 'no gRPC connection, you must call connect first',
        );
        return;
      }
      const metadata = new grpc.Metadata();
      for (const [k, v] of Object.entries(command.metadata))
        for (const one of [v].flat()) metadata.add(k, one);
      let headers: Record<string, string[]> = {};
      let message: unknown = null;
      const call = conn.client.makeUnaryRequest(
        method.path,
        method.requestSerialize,
        method.responseDeserialize,
        command.request as object,
        metadata,
        { deadline: Date.now() + command.timeoutMs },
        // grpc-js calls this just before the call's 'status' event, which posts the reply.
        (error, value) => {
          if (!error) message = value;
        },
      );
      call.on('metadata', (md) => {
        headers = metadataRecord(md);
      });
      call.on('status', (status) => {
        const end = Date.now();
        post({
          t: 'response',
          id: command.id,
          status: status.code,
          message: status.code === grpc.status.OK ? message : null,
          headers,
          trailers: metadataRecord(status.metadata),
          error:
            status.code === grpc.status.OK
              ? undefined
              : { code: status.code, message: status.details, details: [] },
          start,
          end,
        });
      });
      return;
    }
    case 'close':
      conns.get(command.client)?.client.close();
      conns.delete(command.client);
      post({ t: 'closed', id: command.id });
      return;
  }
}

/** Open streams by id: a call, or (server streaming) what the first write will start. */
const streams = new Map<
  number,
  {
    call?: grpc.ClientWritableStream<object> | grpc.ClientReadableStream<object>;
    start?: (message: unknown) => void;
  }
>();

function streamCommand(
  command: Extract<GrpcCommand, { t: 'stream-open' | 'stream-write' | 'stream-end' }>,
): void {
  if (command.t === 'stream-open') {
    const conn = conns.get(command.client);
    const method = conn?.methods.get(command.method);
    if (!conn || !method) {
      post({
        t: 'stream-error',
        id: command.id,
        code: grpc.status.UNIMPLEMENTED,
        message: `method "${command.method}" not found in file descriptors`,
      });
      return;
    }
    const metadata = new grpc.Metadata();
    for (const [k, v] of Object.entries(command.metadata)) for (const one of [v].flat()) metadata.add(k, one);
    const options = command.timeoutMs > 0 ? { deadline: Date.now() + command.timeoutMs } : {};
    const id = command.id;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      streams.delete(id);
      post({ t: 'stream-end', id });
    };
    const fail = (error: grpc.ServiceError) => {
      if (ended) return;
      ended = true;
      streams.delete(id);
      post({
        t: 'stream-error',
        id,
        code: error.code ?? grpc.status.UNKNOWN,
        message: error.details ?? error.message,
      });
    };
    const listen = (call: grpc.ClientReadableStream<object> | grpc.ClientDuplexStream<object, object>) => {
      call.on('data', (message) => post({ t: 'stream-data', id, message }));
      call.on('error', fail);
      call.on('end', end);
    };
    if (method.requestStream) {
      if (method.responseStream) {
        const call = conn.client.makeBidiStreamRequest(
          method.path,
          method.requestSerialize,
          method.responseDeserialize,
          metadata,
          options,
        );
        listen(call);
        streams.set(id, { call });
      } else {
        const call = conn.client.makeClientStreamRequest(
          method.path,
          method.requestSerialize,
          method.responseDeserialize,
          metadata,
          options,
          (error, value) => {
            if (error) fail(error);
            else {
              post({ t: 'stream-data', id, message: value });
              end();
            }
          },
        );
        streams.set(id, { call });
      }
    } else {
      // Server streaming takes its one request when it starts: the first write starts it, as a generated client would.
      streams.set(id, {
        start: (message) => {
          const call = conn.client.makeServerStreamRequest(
            method.path,
            method.requestSerialize,
            method.responseDeserialize,
            message as object,
            metadata,
            options,
          );
          listen(call);
          streams.set(id, { call });
        },
      });
    }
    return;
  }
  const stream = streams.get(command.id);
  if (!stream) return;
  if (command.t === 'stream-write') {
    if (stream.start) stream.start(command.message);
    else if (stream.call && 'write' in stream.call) stream.call.write(command.message as object);
    return;
  }
  if (stream.start) stream.start({});
  else if (stream.call && 'end' in stream.call && 'write' in stream.call) stream.call.end();
}

port.on('message', (command: GrpcCommand) => {
  if (command.t === 'stream-open' || command.t === 'stream-write' || command.t === 'stream-end')
    streamCommand(command);
  else handle(command);
});
