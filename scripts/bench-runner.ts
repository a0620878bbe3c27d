// Benchmarks bench's runner against autocannon on one loopback endpoint and prints the figures side by side:
//   1. a fixed open-model rate: achieved rate and p50/p99 latency, runner vs autocannon (target: p50 <= 1.2x);
//   2. the highest constant-arrival rate sustained with 0 dropped iterations (target: >= 10,000/s);
//   3. the runner's iteration start lag p99 while another VU sends 30 MB bodies (target: < 2 ms).
// Knobs (env): BENCH_RATE (1000), BENCH_SECONDS (10), BENCH_STEPS ("2000,4000,6000,8000,10000,12000"),
// BENCH_STEP_SECONDS (5), BENCH_LAG_RATE (200), BENCH_LAG_SECONDS (10). Every load goes to 127.0.0.1 only and
// every run is bounded by its duration. `make bench-runner` runs it (not part of `make test`).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TrendSink } from '../runner/metrics/sinks';

const root = fileURLToPath(new URL('..', import.meta.url));
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const RATE = num('BENCH_RATE', 1000);
const SECONDS = num('BENCH_SECONDS', 10);
const STEPS = (process.env.BENCH_STEPS ?? '2000,4000,6000,8000,10000,12000').split(',').map(Number);
const STEP_SECONDS = num('BENCH_STEP_SECONDS', 5);
const LAG_RATE = num('BENCH_LAG_RATE', 200);
const LAG_SECONDS = num('BENCH_LAG_SECONDS', 10);

/** The endpoint: a bare node:http server in its own process, so its CPU is not on this process's threads. */
const SERVER = `
const http = require('node:http');
const s = http.createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('ok'); }); });
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => process.stdout.write(String(s.address().port) + '\\n'));
process.stdin.on('end', () => process.exit(0)); process.stdin.resume();
`;

async function startServer(): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    proc.stdout?.once('data', (d) => resolve(String(d).trim())),
  );
  return { url: `http://127.0.0.1:${port}/`, proc };
}

interface AutocannonResult {
  requests: { total: number };
  duration: number;
}

async function runAutocannon(url: string, rate: number, seconds: number) {
  const require = createRequire(import.meta.url);
  // autocannon ships no types; only run() and the 'response' event are used.
  const autocannon = require('autocannon') as (
    opts: Record<string, unknown>,
    cb: (err: Error | null, res: AutocannonResult) => void,
  ) => { on(event: 'response', fn: (c: unknown, status: number, bytes: number, ms: number) => void): void };
  const latencies = new TrendSink();
  const result = await new Promise<AutocannonResult>((resolve, reject) => {
    const instance = autocannon({ url, connections: 10, overallRate: rate, duration: seconds }, (err, res) =>
      err ? reject(err) : resolve(res),
    );
    instance.on('response', (_c, _status, _bytes, ms) => latencies.add(ms));
  });
  return {
    rate: result.requests.total / result.duration,
    p50: latencies.percentile(50),
    p99: latencies.percentile(99),
  };
}

interface RunnerFigures {
  rate: number;
  p50: number;
  p99: number;
  dropped: number;
  lagP99: number;
  loopLagP99: number;
  bigP99?: number;
}

/** Runs a generated k6 script through `node dist/bench.js run`; its handleSummary writes the figures file. */
async function runRunner(source: string, figuresFile: string): Promise<RunnerFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-runner-'));
  try {
    const file = join(dir, 'script.js');
    writeFileSync(file, source);
    await new Promise<void>((resolve) => {
      const child = spawn(process.execPath, [join(root, 'dist/bench.js'), 'run', '-q', file], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('close', () => resolve());
    });
    return JSON.parse(readFileSync(figuresFile, 'utf8')) as RunnerFigures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function script(opts: {
  url: string;
  rate: number;
  seconds: number;
  bigBody?: boolean;
  figures: string;
}): string {
  // One VU per 10 iterations/s: each VU may take up to 10 ms per iteration (request + thread hand-offs).
  const vus = Math.max(20, Math.ceil(opts.rate / 100));
  return `
import http from 'k6/http';
export const options = {
  summaryTrendStats: ['p(50)', 'p(99)', 'count'],
  // Declares the sub-metric the figures read (the summary lists sub-metrics named in thresholds).
  thresholds: { 'http_req_duration{kind:small}': ['p(99)>=0'] },
  scenarios: {
    // The same VUs first warm up (JIT, keep-alive connection) for up to 2 s; its window ends before 'load'.
    warm: { executor: 'per-vu-iterations', vus: ${vus}, iterations: 20, maxDuration: '2s', gracefulStop: '0s', exec: 'warm' },
    load: { executor: 'constant-arrival-rate', rate: ${opts.rate}, timeUnit: '1s', duration: '${opts.seconds}s',
            preAllocatedVUs: ${vus}, maxVUs: ${vus}, gracefulStop: '5s', startTime: '2s' },
    ${
      opts.bigBody
        ? `big: { executor: 'constant-vus', vus: 1, duration: '${opts.seconds}s', exec: 'big', gracefulStop: '10s', startTime: '2s' },`
        : ''
    }
  },
};
const body = ${opts.bigBody ? "'x'.repeat(30 * 1024 * 1024)" : "''"};
export default function () { http.get('${opts.url}', { tags: { kind: 'small' } }); }
export function warm() { http.get('${opts.url}', { tags: { kind: 'warm' } }); }
export function big() { http.post('${opts.url}', body, { tags: { kind: 'big' } }); }
export function handleSummary(data) {
  const m = data.metrics;
  const d = m['http_req_duration{kind:small}'];
  const lag = m.bench_iteration_start_lag ? m.bench_iteration_start_lag.values : { 'p(99)': NaN };
  const figures = {
    rate: (d.values.count || 0) / (${opts.seconds}),
    p50: d.values['p(50)'], p99: d.values['p(99)'],
    dropped: m.dropped_iterations ? m.dropped_iterations.values.count : 0,
    lagP99: lag['p(99)'], loopLagP99: m.bench_event_loop_lag ? m.bench_event_loop_lag.values['p(99)'] : NaN,
  };
  return { ${JSON.stringify(opts.figures)}: JSON.stringify(figures) };
}
`;
}

const ms = (v: number) => `${v.toFixed(3)} ms`;

async function main(): Promise<void> {
  const { url, proc } = await startServer();
  const dir = mkdtempSync(join(tmpdir(), 'bench-runner-figs-'));
  const figs = (n: string) => join(dir, `${n}.json`);
  const withFigures = (source: string, f: string) => runRunner(source, f);
  try {
    console.log(
      `endpoint ${url} (node:http in its own process); machine: ${process.platform}/${process.arch}, node ${process.versions.node}\n`,
    );

    console.log(`1. fixed open-model rate ${RATE}/s for ${SECONDS}s`);
    const ac = await runAutocannon(url, RATE, SECONDS);
    const r1 = await withFigures(
      script({ url, rate: RATE, seconds: SECONDS, figures: figs('fixed') }),
      figs('fixed'),
    );
    console.log(`   autocannon: achieved ${ac.rate.toFixed(1)}/s  p50 ${ms(ac.p50)}  p99 ${ms(ac.p99)}`);
    console.log(
      `   bench run : achieved ${r1.rate.toFixed(1)}/s  p50 ${ms(r1.p50)}  p99 ${ms(r1.p99)}  dropped ${r1.dropped}`,
    );
    console.log(`   p50 ratio runner/autocannon: ${(r1.p50 / ac.p50).toFixed(2)}x (target <= 1.2x)\n`);

    console.log(`2. highest constant-arrival rate with 0 dropped (${STEP_SECONDS}s per step)`);
    // Every step runs (a drop at one rate can be a stall of the machine), until the achieved rate falls below half
    // the asked one; the figures are the highest rate with 0 dropped and the highest achieved rate.
    let best = 0;
    let achieved = 0;
    for (const rate of STEPS) {
      const f = figs(`step-${rate}`);
      const r = await withFigures(script({ url, rate, seconds: STEP_SECONDS, figures: f }), f);
      console.log(
        `   ${String(rate).padStart(6)}/s: achieved ${r.rate.toFixed(1)}/s, dropped ${r.dropped}, start lag p99 ${ms(r.lagP99)}`,
      );
      achieved = Math.max(achieved, r.rate);
      if (r.dropped === 0) best = rate;
      if (r.rate < rate / 2) break;
    }
    console.log(
      `   highest sustained with 0 dropped: ${best}/s (target >= 10000/s); highest achieved: ${achieved.toFixed(1)}/s\n`,
    );

    console.log(`3. start lag while another VU sends 30 MB bodies (${LAG_RATE}/s GETs for ${LAG_SECONDS}s)`);
    const f3 = figs('lag');
    const r3 = await withFigures(
      script({ url, rate: LAG_RATE, seconds: LAG_SECONDS, bigBody: true, figures: f3 }),
      f3,
    );
    console.log(
      `   iteration start lag p99 ${ms(r3.lagP99)} (target < 2 ms); small GET p99 ${ms(r3.p99)}; main event-loop lag p99 ${ms(r3.loopLagP99)}; dropped ${r3.dropped}`,
    );
  } finally {
    proc.stdin?.end();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
