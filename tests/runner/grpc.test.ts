// k6/net/grpc against a loopback gRPC server this test starts (@grpc/grpc-js), with grpc_req_duration and k6's tags in
// the --out json stream.
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import protobuf from 'protobufjs';
import descriptor from 'protobufjs/ext/descriptor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bench, fixture, points, readNdjson, scratch } from './harness';

let server: grpc.Server;
let address = '';
const work = scratch();

beforeAll(async () => {
  const definition = protoLoader.loadSync(fixture('grpc/hello.proto'), { longs: String, defaults: true });
  const service = (grpc.loadPackageDefinition(definition).hello as grpc.GrpcObject)
    .HelloService as grpc.ServiceClientConstructor;
  server = new grpc.Server();
  server.addService(service.service, {
    SayHello: (
      call: grpc.ServerUnaryCall<{ greeting: string; count: string }, unknown>,
      done: grpc.sendUnaryData<unknown>,
    ) => {
      const md = new grpc.Metadata();
      md.set('x-served-by', 'loopback');
      call.sendMetadata(md);
      const user = call.metadata.get('x-user')[0] ?? '';
      done(null, {
        reply: `hello ${call.request.greeting} from ${user}`,
        count: String(Number(call.request.count) + 1),
      });
    },
    Fail: (_call: unknown, done: grpc.sendUnaryData<unknown>) =>
      done({ code: grpc.status.NOT_FOUND, details: 'no such thing' }),
    Countdown: (call: grpc.ServerWritableStream<{ count: string }, unknown>) => {
      for (let n = Number(call.request.count); n > 0; n--) call.write({ reply: `t-${n}`, count: String(n) });
      call.end();
    },
    Sum: (call: grpc.ServerReadableStream<{ count: string }, unknown>, done: grpc.sendUnaryData<unknown>) => {
      let sum = 0;
      call.on('data', (m: { count: string }) => {
        sum += Number(m.count);
      });
      call.on('end', () => done(null, { reply: 'sum', count: String(sum) }));
    },
    Echo: (call: grpc.ServerDuplexStream<{ greeting: string }, unknown>) => {
      call.on('data', (m: { greeting: string }) =>
        call.write({ reply: m.greeting.toUpperCase(), count: '0' }),
      );
      call.on('end', () => call.end());
    },
  });
  // grpc.health.v1.Health/Check, hand-encoded (names under 128 bytes): serving overall, 'down' not serving, any other
  // service unknown (NOT_FOUND, as the standard health service answers).
  const check = {
    path: '/grpc.health.v1.Health/Check',
    requestStream: false,
    responseStream: false,
    requestSerialize: (v: { service: string }) =>
      Buffer.from([0x0a, v.service.length, ...Buffer.from(v.service)]),
    requestDeserialize: (b: Buffer) => ({ service: b.subarray(2).toString() }),
    responseSerialize: (v: { status: number }) => Buffer.from([0x08, v.status]),
    responseDeserialize: (b: Buffer) => ({ status: b[1] }),
  };
  server.addService({ Check: check } as grpc.ServiceDefinition, {
    Check: (call: grpc.ServerUnaryCall<{ service: string }, unknown>, done: grpc.sendUnaryData<unknown>) => {
      const { service } = call.request;
      if (service === '' || service === 'down') done(null, { status: service === '' ? 1 : 2 });
      else done({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
    },
  });
  // Server reflection (grpc.reflection.v1 and v1alpha), for connect({ reflect: true }).
  new ReflectionService(definition).addToServer(server);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) =>
      error ? reject(error) : resolve(p),
    ),
  );
  address = `127.0.0.1:${port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  work.cleanup();
});

describe('k6/net/grpc', () => {
  it('invokes unary methods, sync and async, and emits grpc_req_duration with k6 tags', async () => {
    const out = join(work.dir, 'grpc.json');
    const r = await bench([
      'run',
      '-q',
      '--iterations',
      '1',
      '-e',
      `GRPC_ADDR=${address}`,
      '--out',
      `json=${out}`,
      fixture('grpc-hello.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 5 out of 5/);
    expect(r.stdout).toMatch(/GRPC\n/);
    const durations = points(readNdjson(out), 'grpc_req_duration');
    expect(durations.map((p) => p.data.tags?.status)).toEqual(['0', '5', '0']);
    expect(durations[0].data.tags).toMatchObject({
      url: `${address}/hello.HelloService/SayHello`,
      name: '/hello.HelloService/SayHello',
      service: 'hello.HelloService',
      method: 'SayHello',
      my_tag: 'grpc',
      scenario: 'default',
    });
  });

  it('streams: server, client and bidirectional, with grpc_streams* metrics', async () => {
    const out = join(work.dir, 'streams.json');
    const r = await bench([
      'run',
      '-q',
      '--iterations',
      '1',
      '-e',
      `GRPC_ADDR=${address}`,
      '--out',
      `json=${out}`,
      fixture('grpc-streams.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 3 out of 3/);
    const points = readNdjson(out).filter((l) => l.type === 'Point');
    const count = (metric: string) => points.filter((p) => p.metric === metric).length;
    expect(count('grpc_streams')).toBe(3);
    expect(count('grpc_streams_msgs_sent')).toBe(5);
    expect(count('grpc_streams_msgs_received')).toBe(6);
    expect(points.find((p) => p.metric === 'grpc_streams')?.data.tags).toMatchObject({
      name: '/hello.HelloService/Countdown',
      method: 'Countdown',
    });
  });

  it('connect({ reflect: true }) learns the services from server reflection, with no .proto loaded', async () => {
    const r = await bench([
      'run',
      '-q',
      '--iterations',
      '1',
      '-e',
      `GRPC_ADDR=${address}`,
      fixture('grpc-reflect.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 1 out of 1/);
  });

  it('healthCheck() asks grpc.health.v1.Health/Check with no .proto loaded, as k6 does', async () => {
    const out = join(work.dir, 'health.json');
    const r = await bench([
      'run',
      '-q',
      '--iterations',
      '1',
      '-e',
      `GRPC_ADDR=${address}`,
      '--out',
      `json=${out}`,
      fixture('grpc-health.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 3 out of 3/);
    expect(r.stderr).toContain(
      'health [{\\"status\\":1},{\\"status\\":2},\\"rpc error: code = NotFound desc = unknown service\\"]',
    );
    const durations = points(readNdjson(out), 'grpc_req_duration');
    expect(durations.map((p) => p.data.tags?.status)).toEqual(['0', '0', '5']);
    expect(durations[0].data.tags?.method).toBeUndefined();
  });

  it('loadProtoset() takes a FileDescriptorSet (protoc --descriptor_set_out) instead of .proto files', async () => {
    const root = protobuf.loadSync(fixture('grpc/hello.proto'));
    const set = (root as unknown as { toDescriptor(syntax: string): protobuf.Message }).toDescriptor(
      'proto3',
    );
    const protoset = join(work.dir, 'hello.protoset');
    writeFileSync(protoset, descriptor.FileDescriptorSet.encode(set).finish());
    const r = await bench([
      'run',
      '-q',
      '--iterations',
      '1',
      '-e',
      `GRPC_ADDR=${address}`,
      '-e',
      `PROTOSET=${protoset}`,
      fixture('grpc-protoset.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
  });

  it('connect() to a port nothing listens on fails at once, not at its timeout, as k6 does', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const r = await bench(['run', '-q', '-e', `GRPC_ADDR=127.0.0.1:${closed}`, fixture('grpc-refused.js')]);
    expect(r.code, r.stderr).toBe(0);
    const line = /refused after (\d+) ms: (.*?)" source=console/.exec(r.stderr);
    expect(line?.[2]).toBe(
      `failed to connect to 127.0.0.1:${closed}: the connection was refused or failed (nothing listening there, or a TLS or HTTP/2 failure)`,
    );
    // The timeout is 30 s; a refused dial is not retried.
    expect(Number(line?.[1])).toBeLessThan(10_000);
  });
});
