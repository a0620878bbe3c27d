// Benchmarks bench's runner on one loopback endpoint and prints, in one run, the figures issue 3 asks for next to the
// ceilings of this machine:
//   0. ceilings: autocannon unthrottled and raw undici in one thread against the same endpoint (requests/s, CPU);
//   1. a fixed open-model rate: achieved rate and p50/p99 latency, runner vs autocannon (target: p50 <= 1.2x);
//   2. the highest constant-arrival rate sustained with 0 dropped iterations (target: >= 10,000/s), as ratios to the
//      ceilings of part 0;
//   3. the runner's iteration start lag p99 while another VU sends 30 MB bodies (target: < 2 ms), next to the same
//      schedule with no poster and with the same 30 MB posts sent by a separate process (what this machine allows).
// VUs are sized as a k6 user would: preAllocatedVUs = rate x expected iteration time x margin (at least a minimum),
// and every measured scenario follows a warm-up at the same rate on the same VUs (each VU thread compiles its own
// code). CPU and thread wake-ups per request/iteration are read from /proc (Linux; "n/a" elsewhere): on a VM every
// thread wake-up is expensive, and the runner's sync requests cross threads several times per iteration. Each
// constant-arrival step also prints the endpoint's CPU per iteration, how many CPUs the runner and the endpoint kept
// busy together, and the share of the window the runner's busiest thread was on a CPU: drops with that thread near
// 100% and CPUs to spare mean the one thread that serves the VUs is the limit. Each run also
// prints the machine's steal share over its measured window (/proc/stat): time the hypervisor gave to other guests
// while this VM had work, which shows up as stalls no runner can avoid.
// Knobs (env): BENCH_RATE (1000), BENCH_SECONDS (10), BENCH_STEPS ("1000,2000,3000,4000,6000,8000,10000"),
// BENCH_STEP_SECONDS (5), BENCH_WARMUP_SECONDS (3), BENCH_LAG_RATE (200), BENCH_LAG_SECONDS (10),
// BENCH_CEILING_SECONDS (5), BENCH_CONNECTIONS (10), BENCH_EXPECTED_MS (1), BENCH_VU_MARGIN (3), BENCH_MIN_VUS (10),
// BENCH_HTTP ("sync,async": which script forms to run), BENCH_VU_THREADS (1: host threads of the async form),
// BENCH_CLI (dist/bench.js), BENCH_NODE_ARGS (node flags for the runner process, e.g. "--trace-gc" or "--cpu-prof
// --cpu-prof-dir=prof": its output is then shown). Load goes to 127.0.0.1 only; every run is bounded by its duration.
// `make bench-runner` runs it (not part of `make test`).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { autocannon, type Ceiling, CpuSampler, rawUndici, sleepOvershoot } from './bench-ceilings';

const root = fileURLToPath(new URL('..', import.meta.url));
const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, got "${process.env[name]}"`);
  return value;
};
const RATE = num('BENCH_RATE', 1000);
const SECONDS = num('BENCH_SECONDS', 10);
const STEPS = (process.env.BENCH_STEPS ?? '1000,2000,3000,4000,6000,8000,10000').split(',').map(Number);
if (STEPS.some((r) => !Number.isFinite(r) || r <= 0))
  throw new Error(
    `BENCH_STEPS must be a comma-separated list of positive rates, got "${process.env.BENCH_STEPS}"`,
  );
const STEP_SECONDS = num('BENCH_STEP_SECONDS', 5);
const WARMUP_SECONDS = num('BENCH_WARMUP_SECONDS', 3);
const LAG_RATE = num('BENCH_LAG_RATE', 200);
const LAG_SECONDS = num('BENCH_LAG_SECONDS', 10);
const CEILING_SECONDS = num('BENCH_CEILING_SECONDS', 5);
const CONNECTIONS = num('BENCH_CONNECTIONS', 10);
const EXPECTED_MS = num('BENCH_EXPECTED_MS', 1);
const VU_MARGIN = num('BENCH_VU_MARGIN', 3);
const MIN_VUS = num('BENCH_MIN_VUS', 10);
const CLI = resolve(root, process.env.BENCH_CLI ?? 'dist/bench.js');
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/**
 * How the script sends its GET: `sync` is http.get (one thread per VU, which blocks; the request goes through the
 * HTTP I/O thread), `async` is `await http.asyncRequest` run with --vu-threads (VUs share host threads, each VU's
 * requests served on its host thread).
 */
type HttpMode = 'sync' | 'async';
const VU_THREADS = num('BENCH_VU_THREADS', 1);
const MODES = (process.env.BENCH_HTTP ?? 'sync,async').split(',') as HttpMode[];
if (MODES.length === 0 || MODES.some((m) => m !== 'sync' && m !== 'async'))
  throw new Error(`BENCH_HTTP must be sync, async or sync,async, got "${process.env.BENCH_HTTP}"`);

/** The endpoint: a bare node:http server in its own process, so its CPU is not on this process's threads. */
const SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('ok'); }); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
process.stdin.on('end', () => process.exit(0)); process.stdin.resume();
`;

/** The 30 MB poster outside the runner: back-to-back POSTs on one keep-alive connection until stdin closes. */
const POSTER = `
const http = require('node:http');
const url = new URL(process.argv[1]);
const body = Buffer.alloc(30 * 1024 * 1024, 'x');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let stop = false;
process.stdin.on('end', () => { stop = true; setTimeout(() => process.exit(0), 5000).unref(); }); process.stdin.resume();
const one = () => {
  if (stop) return process.exit(0);
  const req = http.request({ host: url.hostname, port: url.port, path: '/', method: 'POST', agent, headers: { 'content-length': body.length } },
    (res) => { res.resume(); res.on('end', one); });
  req.on('error', () => process.exit(1));
  req.end(body);
};
one();
`;

/** The endpoint's process id, for its CPU figures (set once main() has started it). */
let endpointPid = 0;

async function startServer(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((done) => proc.stdout?.once('data', (d) => done(String(d).trim())));
  return { url: `http://127.0.0.1:${port}/`, proc };
}

/** preAllocatedVUs (= maxVUs) for a rate: rate x expected iteration time x margin, at least MIN_VUS. */
function vusFor(rate: number): number {
  return Math.max(MIN_VUS, Math.ceil(((rate * EXPECTED_MS) / 1000) * VU_MARGIN));
}

interface RunnerFigures {
  rate: number;
  p50: number;
  p99: number;
  dropped: number;
  warmDropped: number;
  lagP99: number;
  httpLagP99: number;
  /**
   * Part 3 only (its runs write `--out json`): the largest per-second event-loop lag of the main thread and of the
   * thread that times the requests inside the measured window, which the summary's figures cannot separate from the
   * warm-up (VU start-up and JIT compilation stall both threads there).
   */
  windowLag?: { main: number; request: number };
  /** Runner process CPU per measured iteration (µs) and voluntary context switches (thread wake-ups) of its threads
   * per iteration (NaN without /proc). */
  cpuUs: number;
  switches: number;
  /** The endpoint process's CPU per measured iteration (µs), and how many of the machine's CPUs the runner and the
   * endpoint kept busy together over the window (NaN without /proc): near the CPU count, the machine is the limit. */
  endpointUs: number;
  cpusBusy: number;
  /** Share of the window the runner's busiest thread was on a CPU (NaN without /proc). */
  busiestThread: number;
  /** Share of the machine's CPU time stolen by the hypervisor during the measured window (NaN without /proc). */
  steal: number;
  vus: number;
}

/** The thread that times the requests: the HTTP I/O thread (sync) or the VUs' (first) host thread (async). */
function requestThreadOf(mode: HttpMode): string {
  return mode === 'sync' ? 'http' : VU_THREADS === 1 ? 'vu-host' : 'vu-host-1';
}

/** Who sends 30 MB bodies beside the measured GETs: nobody, a VU of the same run, or a separate process. */
type Poster = 'none' | 'vu' | 'process';

/** A k6 script: warm-up at the rate, then the measured scenario on the same VUs (and optionally a 30 MB poster VU). */
function script(o: {
  url: string;
  mode: HttpMode;
  rate: number;
  seconds: number;
  vus: number;
  big: boolean;
  figures: string;
}) {
  const requestThread = `bench_event_loop_lag{thread:${requestThreadOf(o.mode)}}`;
  const arrival = (duration: number, extra: string) =>
    `{ executor: 'constant-arrival-rate', rate: ${o.rate}, timeUnit: '1s', duration: '${duration}s', preAllocatedVUs: ${o.vus}, maxVUs: ${o.vus}, ${extra} }`;
  return `
import http from 'k6/http';
export const options = {
  summaryTrendStats: ['p(50)', 'p(99)', 'count'],
  // Declared so the summary carries these sub-metrics (the measured scenario only, and the request thread's lag).
  thresholds: {
    'http_req_duration{scenario:load}': ['p(99)>=0'], 'dropped_iterations{scenario:load}': ['count>=0'],
    'dropped_iterations{scenario:warm}': ['count>=0'], 'bench_iteration_start_lag{scenario:load}': ['p(99)>=0'],
    '${requestThread}': ['p(99)>=0'],
  },
  scenarios: {
    warm: ${arrival(WARMUP_SECONDS, "gracefulStop: '0s'")},
    load: ${arrival(o.seconds, `gracefulStop: '5s', startTime: '${WARMUP_SECONDS}s'`)},
    ${o.big ? `big: { executor: 'constant-vus', vus: 1, duration: '${o.seconds}s', exec: 'big', gracefulStop: '10s', startTime: '${WARMUP_SECONDS}s' },` : ''}
  },
};
const body = ${o.big ? "'x'.repeat(30 * 1024 * 1024)" : "''"};
export function setup() { return { t0: Date.now() }; }
${
  o.mode === 'sync'
    ? `export default function () { http.get('${o.url}'); }`
    : `export default async function () { await http.asyncRequest('GET', '${o.url}'); }`
}
export function big() { ${o.mode === 'sync' ? `http.post('${o.url}', body);` : `return http.asyncRequest('POST', '${o.url}', body);`} }
export function handleSummary(data) {
  const m = data.metrics;
  const v = (name, stat) => (m[name] ? m[name].values[stat] : NaN);
  const figures = {
    t0: data.setup_data.t0, count: v('http_req_duration{scenario:load}', 'count'),
    p50: v('http_req_duration{scenario:load}', 'p(50)'), p99: v('http_req_duration{scenario:load}', 'p(99)'),
    dropped: v('dropped_iterations{scenario:load}', 'count') || 0, warmDropped: v('dropped_iterations{scenario:warm}', 'count') || 0,
    lagP99: v('bench_iteration_start_lag{scenario:load}', 'p(99)'),
    httpLagP99: v('${requestThread}', 'p(99)'),
  };
  return { ${JSON.stringify(o.figures)}: JSON.stringify(figures) };
}
`;
}

/** Runs one generated script through `node <CLI> run`; figures come from its handleSummary and /proc. */
async function runRunner(
  mode: HttpMode,
  url: string,
  rate: number,
  seconds: number,
  poster: Poster = 'none',
  lagInWindow = false,
): Promise<RunnerFigures> {
  const big = poster === 'vu';
  const dir = mkdtempSync(join(tmpdir(), 'bench-runner-'));
  try {
    const file = join(dir, 'script.js');
    const figuresFile = join(dir, 'figures.json');
    const vus = vusFor(rate);
    writeFileSync(file, script({ url, mode, rate, seconds, vus, big, figures: figuresFile }));
    // With node flags (profiling, GC tracing) the runner's own output is what the user wants to see.
    const stdout = NODE_ARGS.length > 0 ? 'inherit' : 'ignore';
    const flags = mode === 'async' ? ['--vu-threads', String(VU_THREADS)] : [];
    const posterProc =
      poster === 'process'
        ? spawn(process.execPath, ['-e', POSTER, url], { stdio: ['pipe', 'ignore', 'inherit'] })
        : undefined;
    // At part 3's 200/s the NDJSON output is a few tens of thousands of lines: too little to disturb the run.
    const out = join(dir, 'out.ndjson');
    if (lagInWindow) flags.push('--out', `json=${out}`);
    const child = spawn(process.execPath, [...NODE_ARGS, CLI, 'run', '-q', ...flags, file], {
      stdio: ['ignore', stdout, 'pipe'],
    });
    const cpu = new CpuSampler(child.pid ?? 0);
    const endpointCpu = new CpuSampler(endpointPid);
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += String(d);
      if (NODE_ARGS.length > 0) process.stderr.write(d);
    });
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    cpu.stop();
    endpointCpu.stop();
    if (posterProc) {
      posterProc.stdin?.end();
      await new Promise((done) => posterProc.on('close', done));
    }
    // The runner's warnings (e.g. "Insufficient VUs" whenever a start is dropped) only matter when it failed.
    if (code !== 0) throw new Error(`bench run exited with ${code}:\n${stderr}`);
    const f = JSON.parse(readFileSync(figuresFile, 'utf8'));
    // The middle 80% of the measured window (its start is t0 + warm-up; t0 is the end of setup()).
    const from = f.t0 + (WARMUP_SECONDS + seconds * 0.1) * 1000;
    const to = f.t0 + (WARMUP_SECONDS + seconds * 0.9) * 1000;
    const rateDone = f.count / seconds;
    const used = cpu.between(from, to);
    const endpoint = endpointCpu.between(from, to);
    const iterations = (rateDone * (to - from)) / 1000;
    return {
      ...f,
      rate: rateDone,
      vus,
      cpuUs: (used.cpu / iterations) * 1e6,
      switches: used.switches / iterations,
      endpointUs: (endpoint.cpu / iterations) * 1e6,
      cpusBusy: (used.cpu + endpoint.cpu) / ((to - from) / 1000),
      busiestThread: used.busiestThread,
      steal: used.steal,
      windowLag: lagInWindow
        ? windowLag(out, f.t0 + WARMUP_SECONDS * 1000, f.t0 + (WARMUP_SECONDS + seconds) * 1000, mode)
        : undefined,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The largest `bench_event_loop_lag` of the main thread and of the request thread between two epoch-ms instants. */
function windowLag(
  ndjson: string,
  from: number,
  to: number,
  mode: HttpMode,
): { main: number; request: number } {
  const requestThread = requestThreadOf(mode);
  const lag = { main: 0, request: 0 };
  for (const line of readFileSync(ndjson, 'utf8').split('\n')) {
    if (!line.includes('"bench_event_loop_lag"') || !line.includes('"Point"')) continue;
    const point = JSON.parse(line) as { data: { time: string; value: number; tags: { thread?: string } } };
    const time = Date.parse(point.data.time);
    if (time < from || time > to) continue;
    if (point.data.tags.thread === 'main') lag.main = Math.max(lag.main, point.data.value);
    if (point.data.tags.thread === requestThread) lag.request = Math.max(lag.request, point.data.value);
  }
  return lag;
}

const ms = (v: number) => `${v.toFixed(3)} ms`;
const us = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(0)} µs`);
const sw = (v: number) => (Number.isNaN(v) ? 'n/a' : v.toFixed(1));
const busy = (both: number) =>
  Number.isNaN(both)
    ? 'CPUs busy n/a'
    : `runner and endpoint kept ${both.toFixed(2)} of ${availableParallelism()} CPUs busy`;
const pct = (v: number) => (Number.isNaN(v) ? 'n/a' : `${(v * 100).toFixed(1)}%`);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  const { url, proc } = await startServer();
  endpointPid = proc.pid ?? 0;
  try {
    console.log(
      `endpoint ${url} (node:http in its own process); ${process.platform}/${process.arch}, ${availableParallelism()} CPUs, node ${process.versions.node}; runner ${CLI}`,
    );
    console.log(`load average at start: ${load()}\n`);

    console.log(`0. ceilings of this machine against the same endpoint (${CEILING_SECONDS}s each)`);
    const ac: Ceiling = await autocannon(url, CEILING_SECONDS, CONNECTIONS);
    console.log(
      `   autocannon, ${CONNECTIONS} connections, unthrottled: ${ac.rate.toFixed(0)}/s, CPU ${us(ac.cpuUs)} and ${sw(ac.switches)} thread wake-ups per request`,
    );
    const raw = await rawUndici(url, CEILING_SECONDS, CONNECTIONS);
    const overshoot = sleepOvershoot(1000, 1);
    console.log(
      `   raw undici in one thread, ${CONNECTIONS} requests in flight: ${raw.rate.toFixed(0)}/s, CPU ${us(raw.cpuUs)} and ${sw(raw.switches)} thread wake-ups per request`,
    );
    console.log(
      `   a thread sleeping 1 ms (Atomics.wait, as a VU waits for its start) wakes late by p50 ${ms(overshoot.p50)}, p99 ${ms(overshoot.p99)}\n`,
    );

    for (const mode of MODES) {
      console.log(
        mode === 'sync'
          ? 'sync: `http.get(url)` (the VU thread blocks; the request is served on the HTTP I/O thread)\n'
          : `async: \`await http.asyncRequest('GET', url)\` with --vu-threads ${VU_THREADS} (VUs share ${VU_THREADS} thread(s) and serve their own requests)\n`,
      );
      console.log(`${mode}: 1. fixed open-model rate ${RATE}/s for ${SECONDS}s`);
      const fixedAc = await autocannon(url, SECONDS, CONNECTIONS, RATE);
      const r1 = await runRunner(mode, url, RATE, SECONDS);
      console.log(
        `   autocannon: achieved ${fixedAc.rate.toFixed(1)}/s  p50 ${ms(fixedAc.p50)}  p99 ${ms(fixedAc.p99)}`,
      );
      console.log(
        `   bench run : achieved ${r1.rate.toFixed(1)}/s  p50 ${ms(r1.p50)}  p99 ${ms(r1.p99)}  dropped ${r1.dropped}  (${r1.vus} VUs; CPU ${us(r1.cpuUs)} and ${sw(r1.switches)} thread wake-ups per iteration; steal ${pct(r1.steal)})`,
      );
      console.log(`   p50 ratio runner/autocannon: ${(r1.p50 / fixedAc.p50).toFixed(2)}x (target <= 1.2x)\n`);

      console.log(
        `${mode}: 2. highest constant-arrival rate with 0 dropped (${STEP_SECONDS}s per step after ${WARMUP_SECONDS}s warm-up; VUs = rate x ${EXPECTED_MS} ms x ${VU_MARGIN}, at least ${MIN_VUS})`,
      );
      // Every step runs (a drop at one rate can be a stall of the machine) until the achieved rate falls below half the
      // asked one; the figures are the highest rate with 0 dropped and the highest achieved rate.
      let best = 0;
      let achieved = 0;
      for (const rate of STEPS) {
        const r = await runRunner(mode, url, rate, STEP_SECONDS);
        console.log(
          `   ${String(rate).padStart(6)}/s (${r.vus} VUs): achieved ${r.rate.toFixed(1)}/s, dropped ${r.dropped} (warm-up ${r.warmDropped}), start lag p99 ${ms(r.lagP99)}, request-thread lag p99 ${ms(r.httpLagP99)} (per-second maxima, warm-up included); CPU ${us(r.cpuUs)} and ${sw(r.switches)} thread wake-ups per iteration (endpoint ${us(r.endpointUs)}; ${busy(r.cpusBusy)}; the runner's busiest thread ${pct(r.busiestThread)} busy); steal ${pct(r.steal)}`,
        );
        achieved = Math.max(achieved, r.rate);
        if (r.dropped === 0) best = rate;
        if (r.rate < rate / 2) break;
      }
      const ratio = (v: number, c: Ceiling) => `${(v / c.rate).toFixed(2)}x`;
      console.log(`   highest sustained with 0 dropped: ${best}/s (target >= 10000/s)`);
      console.log(
        `   highest achieved: ${achieved.toFixed(1)}/s = ${ratio(achieved, ac)} autocannon's ceiling, ${ratio(achieved, raw)} raw undici's\n`,
      );

      console.log(
        `${mode}: 3. start lag while another VU sends 30 MB bodies (${LAG_RATE}/s GETs for ${LAG_SECONDS}s), next to no poster and to the same posts from a separate process`,
      );
      const posters: Array<[Poster, string]> = [
        ['none', 'no poster                          '],
        ['vu', 'poster VU in the run (the figure)  '],
        ['process', 'poster as a separate node process '],
      ];
      for (const [poster, label] of posters) {
        const r3 = await runRunner(mode, url, LAG_RATE, LAG_SECONDS, poster, true);
        console.log(
          `   ${label}: iteration start lag p99 ${ms(r3.lagP99)}${poster === 'vu' ? ' (target < 2 ms)' : ''}; small GET p99 ${ms(r3.p99)}; largest event-loop lag in the measured window main ${ms(r3.windowLag?.main ?? Number.NaN)}, request thread ${ms(r3.windowLag?.request ?? Number.NaN)}; dropped ${r3.dropped}; steal ${pct(r3.steal)}`,
        );
      }
    }
    console.log(`\nload average at end: ${load()}`);
  } finally {
    proc.stdin?.end();
  }
}

await main();
