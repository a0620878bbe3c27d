// Entry of a k6/net/grpc I/O worker: the gRPC connections of one VU's clients (@grpc/grpc-js), served while the VU's
// thread blocks in connect() and invoke() (runner/modules/grpc.ts) or awaits asyncInvoke(). Each reply is posted to
// the VU's port, then the VU's signal word is set and notified.
import { lookup } from 'node:dns';
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

type Methods = Map<string, protoLoader.MethodDefinition<object, object>>;

function addMethods(methods: Methods, definition: protoLoader.PackageDefinition): void {
  for (const value of Object.values(definition)) {
    if (!value || typeof value !== 'object' || 'format' in value) continue;
    for (const method of Object.values(value as protoLoader.ServiceDefinition))
      methods.set(method.path, method);
  }
}

function methodsOf(protos: ProtoSource[]): Methods {
  const methods: Methods = new Map();
  for (const source of protos) {
    addMethods(
      methods,
      'protoset' in source
        ? protoLoader.loadFileDescriptorSetFromBuffer(Buffer.from(source.protoset), LOAD_OPTIONS)
        : protoLoader.loadSync(source.files, { ...LOAD_OPTIONS, includeDirs: source.importPaths }),
    );
  }
  return methods;
}

// gRPC server reflection (grpc.reflection.v1, then v1alpha), spoken with hand-encoded protobuf: the messages are
// small and fixed, and their .proto files are not ours to ship.
function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 127) {
    out.push((v & 127) | 128);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

function lengthDelimited(field: number, bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([...varint((field << 3) | 2), ...varint(bytes.length)]), bytes]);
}

/** A message's varint and length-delimited fields, in order, as [field number, value] (fixed-width ones skipped). */
function allFields(message: Buffer): Array<[number, number | Buffer]> {
  const out: Array<[number, number | Buffer]> = [];
  let at = 0;
  const readVarint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = message[at++];
      value += (b & 127) * scale;
      if (!(b & 128) || at >= message.length) return value;
      scale *= 128;
    }
  };
  while (at < message.length) {
    const tag = readVarint();
    const type = tag & 7;
    if (type === 2) {
      const length = readVarint();
      out.push([Math.floor(tag / 8), message.subarray(at, at + length)]);
      at += length;
    } else if (type === 0) out.push([Math.floor(tag / 8), readVarint()]);
    else if (type === 1) at += 8;
    else if (type === 5) at += 4;
    else break;
  }
  return out;
}

/** The length-delimited fields of a message, as [field number, bytes]. */
function fields(message: Buffer): Array<[number, Buffer]> {
  return allFields(message).filter((entry): entry is [number, Buffer] => typeof entry[1] !== 'number');
}

async function reflect(client: grpc.Client, deadline: number): Promise<Methods> {
  let lastError: unknown;
  for (const version of ['v1', 'v1alpha']) {
    try {
      return await reflectWith(
        client,
        `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`,
        deadline,
      );
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function reflectWith(client: grpc.Client, path: string, deadline: number): Promise<Methods> {
  const identity = (b: Buffer) => b;
  const call = client.makeBidiStreamRequest(path, identity, identity, new grpc.Metadata(), { deadline });
  const replies: Buffer[] = [];
  const waiting: Array<{ resolve: (b: Buffer) => void; reject: (e: unknown) => void }> = [];
  let failure: unknown;
  call.on('data', (b: Buffer) => {
    const w = waiting.shift();
    if (w) w.resolve(b);
    else replies.push(b);
  });
  call.on('error', (error) => {
    failure = error;
    for (const w of waiting.splice(0)) w.reject(error);
  });
  const ask = (request: Buffer): Promise<Buffer> => {
    call.write(request);
    const ready = replies.shift();
    if (ready) return Promise.resolve(ready);
    if (failure) return Promise.reject(failure);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  try {
    // ServerReflectionRequest.list_services (7) -> ServerReflectionResponse.list_services_response (6).
    const listed = fields(await ask(lengthDelimited(7, new Uint8Array())));
    const services = listed
      .filter(([f]) => f === 6)
      .flatMap(([, list]) => fields(list).filter(([f]) => f === 1))
      .map(
        ([, service]) =>
          fields(service)
            .find(([f]) => f === 1)?.[1]
            .toString('utf8') ?? '',
      )
      .filter((name) => name !== '' && !name.startsWith('grpc.reflection.'));
    const files = new Map<string, Buffer>();
    for (const service of services) {
      // file_containing_symbol (4) -> file_descriptor_response (4): FileDescriptorProtos, dependencies included.
      const reply = fields(await ask(lengthDelimited(4, Buffer.from(service))));
      for (const [f, body] of reply) {
        if (f !== 4) continue;
        for (const [g, file] of fields(body)) if (g === 1) files.set(file.toString('base64'), file);
      }
    }
    const set = Buffer.concat([...files.values()].map((file) => lengthDelimited(1, file)));
    const methods: Methods = new Map();
    addMethods(methods, protoLoader.loadFileDescriptorSetFromBuffer(set, LOAD_OPTIONS));
    return methods;
  } finally {
    call.end();
  }
}

// grpc.health.v1.Health/Check for healthCheck(), hand-encoded as reflection is: k6 needs no .proto from the script
// for it, and answers the serving status as its enum number (HealthCheckServing is 1).
type Serialize = (value: object) => Buffer;
type Deserialize = (bytes: Buffer) => object;
const HEALTH_CHECK: { path: string; requestSerialize: Serialize; responseDeserialize: Deserialize } = {
  path: '/grpc.health.v1.Health/Check',
  requestSerialize: (request) => {
    const service = (request as { service?: string }).service ?? '';
    return service === '' ? Buffer.alloc(0) : lengthDelimited(1, Buffer.from(service));
  },
  responseDeserialize: (bytes) => ({
    status: allFields(bytes).find(([field, value]) => field === 1 && typeof value === 'number')?.[1] ?? 0,
  }),
};

function metadataRecord(md: grpc.Metadata | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(md?.getMap() ?? {})) out[key] = [String(values)];
  return out;
}

/** The host of a connect() address (host:port, [v6]:port). */
function hostOf(address: string): string {
  if (address.startsWith('[')) return address.slice(1, address.indexOf(']'));
  const colon = address.lastIndexOf(':');
  return colon === -1 ? address : address.slice(0, colon);
}

/**
 * Calls `fail` at the channel's first failed attempt once the address resolves, as k6 fails connect() (grpc-go's
 * FailOnNonTempDialError: a refused connection is not retried); grpc-js would retry until the timeout. A name that
 * does not resolve waits for the timeout in k6 too, so that case stays with waitForReady.
 */
function failFastOnceResolved(
  client: grpc.Client,
  address: string,
  deadline: number,
  fail: () => void,
): void {
  lookup(hostOf(address), (error) => {
    if (error) return;
    const channel = client.getChannel();
    const follow = (state: grpc.connectivityState): void => {
      if (state === grpc.connectivityState.TRANSIENT_FAILURE) fail();
      else if (state !== grpc.connectivityState.READY && state !== grpc.connectivityState.SHUTDOWN)
        channel.watchConnectivityState(state, deadline, (timedOut) => {
          if (!timedOut) follow(channel.getConnectivityState(false));
        });
    };
    follow(channel.getConnectivityState(true));
  });
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
        const deadline = Date.now() + command.timeoutMs;
        // The fast failure and waitForReady race; the first to answer does.
        let answered = false;
        const failed = (why: string) => {
          if (answered) return;
          answered = true;
          client.close();
          post({ t: 'connected', id: command.id, error: `failed to connect to ${command.address}: ${why}` });
        };
        failFastOnceResolved(client, command.address, deadline, () =>
          failed(
            'the connection was refused or failed (nothing listening there, or a TLS or HTTP/2 failure)',
          ),
        );
        client.waitForReady(deadline, (error) => {
          if (error) {
            failed(error.message);
            return;
          }
          if (answered) return;
          answered = true;
          const ready = () => {
            conns.get(command.client)?.client.close();
            conns.set(command.client, { client, methods });
            post({ t: 'connected', id: command.id });
          };
          if (!command.reflect) {
            ready();
            return;
          }
          reflect(client, deadline).then(
            (found) => {
              for (const [path, method] of found) methods.set(path, method);
              ready();
            },
            (failure: Error) => {
              client.close();
              post({ t: 'connected', id: command.id, error: `can't list services: ${failure.message}` });
            },
          );
        });
      } catch (error) {
        post({ t: 'connected', id: command.id, error: (error as Error).message });
      }
      return;
    }
    case 'invoke': {
      const conn = conns.get(command.client);
      const method = command.health ? HEALTH_CHECK : conn?.methods.get(command.method);
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
