// Micro-benchmark of k6/http's synchronous path: round trips per second and mean latency of `http.get` from VU
// threads through the HTTP I/O worker, against raw undici awaited in one thread, same loopback server (a child
// process), same run. Prints figures; not part of `make test`.
//
//   npm run build && npx tsx benchmarks/bench-http-client.ts
//   knobs (env): BENCH_REQUESTS (per measurement, default 20000), BENCH_VUS (comma list, default "1,2,4"),
//                BENCH_IO_WORKERS (default 1)
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isMainThread, type MessagePort, parentPort, Worker, workerData } from 'node:worker_threads';
import * as esbuild from 'esbuild';
import { Pool } from 'undici';
import { defaultHttpOptions } from '../runner/http/default-options';
import { HttpIoPool } from '../runner/http/io-pool';
import type { RequestFlow } from '../runner/http/request-flow';
import type { Response } from '../runner/http/response';
import { VuHttp } from '../runner/http/vu-http';
import type { ReplyMessage } from '../runner/http/wire';
import { createHttpModule } from '../runner/modules/http';
import { HostedBlockingError, type HttpModuleOptions, type ModuleHost } from '../runner/modules/module-host';

const IO_WORKER = new URL('../dist/http-io.worker.js', import.meta.url);

/** Worker threads and child processes cannot load TypeScript: they run this file bundled (inside the repo so bare
 * imports resolve from node_modules). */
async function selfBundle(): Promise<URL> {
  const outfile = fileURLToPath(
    new URL('../node_modules/.cache/bench-scripts/bench-http-client.mjs', import.meta.url),
  );
  await esbuild.build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return new URL(`file://${outfile}`);
}

interface VuJob {
  port: MessagePort;
  url: string;
  requests: number;
}

const HTTP_OPTIONS: HttpModuleOptions = {
  ...defaultHttpOptions(),
  userAgent: 'bench-http-client',
  systemTags: ['proto', 'status', 'method', 'url', 'name', 'group', 'error', 'error_code', 'scenario'],
};

const VU_TAGS = Object.freeze({ scenario: 'default', group: '' });

/** A minimal ModuleHost for a VU thread that counts samples and needs no runner core. */
function benchHost(port: MessagePort | undefined, onSamples: (n: number) => void): ModuleHost {
  return {
    vuId: 1,
    inInitContext: () => false,
    httpOptions: HTTP_OPTIONS,
    tags: () => VU_TAGS,
    metadata: () => ({}),
    emit: (s) => onSamples(s.length),
    countData: () => {},
    log: () => {},
    signal: new Int32Array(new SharedArrayBuffer(8)),
    throwIfInterrupted: () => {},
    httpPort: port,
    track: (p) => p,
    onIterationStart: () => {},
    onIterationEnd: () => {},
    hosted: false,
    awaitsBlocking: false,
    blockingError: (call) => new HostedBlockingError(call),
  };
}

/**
 * The VU-thread share of a request without any I/O: params, URL and body checks, the wire request, then the nine
 * samples and the Response from a canned 200 reply. Microseconds per request, in this thread.
 */
function vuSideOnly(requests: number): number {
  const vu = new VuHttp(benchHost(undefined, () => {}));
  const body = new TextEncoder().encode('ok');
  const reply = (): ReplyMessage => ({
    t: 'res',
    id: 1,
    status: 200,
    statusText: 'OK',
    proto: 'HTTP/1.1',
    headers: ['Content-Type', 'text/plain', 'Date', 'x', 'Connection', 'keep-alive', 'Content-Length', '2'],
    body: [body.slice().buffer],
    bodyBytes: 2,
    timings: {
      blocked: 0.01,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0.02,
      waiting: 0.1,
      receiving: 0.01,
    },
    endTime: Date.now(),
    remoteIp: '127.0.0.1',
    remotePort: 1,
    tlsVersion: '',
    tlsCipherSuite: '',
    sentBytes: 80,
    receivedBytes: 120,
    error: null,
    requestBody: null,
  });
  const once = (): Response | undefined => {
    const flow = vu.prepare('GET', 'http://127.0.0.1:8080/', null, undefined) as RequestFlow;
    flow.next();
    return flow.settle(reply());
  };
  // Best of three rounds: the first ones also pay for JIT tiering and the machine is shared.
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    for (let i = 0; i < requests; i++)
      if (once()?.status !== 200) throw new Error('unexpected canned response');
    best = Math.min(best, ((performance.now() - start) * 1000) / requests);
  }
  return best;
}

/** A VU thread: the real k6/http module on a minimal host that counts samples; runs `requests` sync GETs. */
function runVu(job: VuJob): void {
  let samples = 0;
  const host = benchHost(job.port, (n) => {
    samples += n;
  });
  const http = createHttpModule(host) as { get: (url: string) => { status: number } };
  for (let i = 0; i < 200; i++) http.get(job.url); // warm-up: connection, JIT
  const start = performance.now();
  let failures = 0;
  for (let i = 0; i < job.requests; i++) if (http.get(job.url).status !== 200) failures++;
  const elapsed = performance.now() - start;
  parentPort?.postMessage({ elapsed, failures, samples });
}

async function startServer(self: URL): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(self), ['--server'], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(m as number)));
  return { child, url: `http://127.0.0.1:${port}/` };
}

async function serve(): Promise<void> {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.(typeof address === 'object' && address ? address.port : 0);
  });
  process.on('disconnect', () => process.exit(0));
}

async function rawUndici(
  url: string,
  requests: number,
): Promise<{ rps: number; meanMs: number; cpuUs: number }> {
  const origin = new URL(url).origin;
  const pool = new Pool(origin, { connections: 1 });
  const get = async () => {
    const res = await pool.request({ path: '/', method: 'GET', headers: { 'user-agent': 'raw' } });
    await res.body.text();
    return res.statusCode;
  };
  for (let i = 0; i < 200; i++) await get();
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < requests; i++) await get();
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  await pool.close();
  return {
    rps: (requests / elapsed) * 1000,
    meanMs: elapsed / requests,
    cpuUs: (used.user + used.system) / requests,
  };
}

async function runner(self: URL, url: string, vus: number, requests: number, ioWorkers: number) {
  const pool = await HttpIoPool.start({ workers: ioWorkers, workerFile: IO_WORKER });
  const perVu = Math.ceil(requests / vus);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: vus }, (_, i) => {
      const port = pool.connectVu(i + 1);
      const worker = new Worker(self, {
        workerData: { port, url, requests: perVu },
        transferList: [port],
      });
      return new Promise<{ elapsed: number; failures: number; samples: number }>((resolve, reject) => {
        worker.once('message', (m) => {
          resolve(m);
          void worker.terminate();
        });
        worker.once('error', reject);
      });
    }),
  );
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  await pool.close();
  const total = perVu * vus;
  const slowest = Math.max(...results.map((r) => r.elapsed));
  return {
    rps: (total / slowest) * 1000,
    meanMs: results.reduce((s, r) => s + r.elapsed / perVu, 0) / vus,
    failures: results.reduce((s, r) => s + r.failures, 0),
    samplesPerRequest: results.reduce((s, r) => s + r.samples, 0) / (total + 200 * vus),
    wallMs: wall,
    // Whole process (VU threads, I/O worker, main), warm-up requests and thread start-up included.
    cpuUs: (used.user + used.system) / (total + 200 * vus),
  };
}

async function main(): Promise<void> {
  const requests = Number(process.env.BENCH_REQUESTS ?? 20_000);
  const vuCounts = (process.env.BENCH_VUS ?? '1,2,4').split(',').map(Number);
  const ioWorkers = Number(process.env.BENCH_IO_WORKERS ?? 1);
  const self = await selfBundle();
  const { child, url } = await startServer(self);
  try {
    const raw = await rawUndici(url, requests);
    console.log(
      `requests per measurement: ${requests}; server: node:http child process; I/O workers: ${ioWorkers}`,
    );
    console.log(
      `k6/http VU-side work only (no I/O, canned reply, best of 3 x 50000): ${vuSideOnly(50_000).toFixed(2)} µs/request`,
    );
    console.log(
      `raw undici, 1 connection, awaited in one thread: ${raw.rps.toFixed(0)} req/s, mean ${(raw.meanMs * 1000).toFixed(1)} µs, CPU ${raw.cpuUs.toFixed(0)} µs/request`,
    );
    for (const vus of vuCounts) {
      const r = await runner(self, url, vus, requests, ioWorkers);
      console.log(
        `k6/http sync, ${vus} VU thread(s): ${r.rps.toFixed(0)} req/s, mean ${(r.meanMs * 1000).toFixed(1)} µs per request` +
          ` (${(r.meanMs / raw.meanMs).toFixed(2)}x raw undici), CPU ${r.cpuUs.toFixed(0)} µs/request` +
          ` (${(r.cpuUs / raw.cpuUs).toFixed(2)}x raw), failures ${r.failures}, samples/request ${r.samplesPerRequest.toFixed(1)}`,
      );
    }
  } finally {
    child.disconnect();
  }
}

if (process.argv.includes('--server')) {
  await serve();
} else if (isMainThread) {
  await main();
} else {
  runVu(workerData as VuJob);
}
