// Benchmarks bench's runner against vegeta (a Go open-model load generator) in one run, each client alone against the
// same loopback endpoint (benchmarks/bench-endpoint/main.go: Go net/http pinned to one CPU), and prints the figures issue
// 17 asks for as ratios to vegeta's:
//   1. a constant arrival rate (2000/s for 30 s, 20 pre-allocated VUs, discardResponseBodies): CPU per request,
//      dropped iterations, p50/p99 latency, start lag and peak RSS, for vegeta and for both script forms k6 users
//      write: sync `http.get(url)` and async `await http.asyncRequest('GET', url)`, each run as `bench run script.js`;
//      vegeta never drops a start, so its own hits are replayed through k6's drop rule with the same VU count
//      (benchmarks/k6-drop-rule.ts): what the machine's stalls in its run would have cost any k6-rule runner; in rounds
//      (vegeta, then each form; three by default), each form's ratios taken to the vegeta of its round;
//   2. a slow test (10/s): how much CPU the runner keeps busy when it has almost nothing to do, beside the start lag
//      its start-time mechanism gives, each client's wake-ups per second, and Node's own floor (an empty timer);
//   3. VU start-up: 100 sync VUs (at 100/s for 10 s) against 1, for the time until they are ready and their resident
//      memory per VU;
//   4. a test's first seconds: short runs of part 1's test, for the starts dropped while every VU opens its connection
//      and the runner's code is not yet optimised, run in turn with vegeta's (replayed the same way).
// CPU is read from /proc (Linux; "n/a" elsewhere) over the middle 80% of each measured window, so start-up and the
// last in-flight requests are left out for every client alike. Load goes to 127.0.0.1 only; every run is bounded.
// Knobs (env): BENCH_RATE (2000), BENCH_SECONDS (30), BENCH_VUS (20), BENCH_SLOW_RATE (10), BENCH_SLOW_SECONDS (10),
// BENCH_START_VUS (100), BENCH_START_RATE (100), BENCH_START_SECONDS (10), BENCH_FIRST_RUNS (8),
// BENCH_FIRST_SECONDS (2), BENCH_FORMS ("sync,async"), BENCH_ROUNDS (3: part 1 runs vegeta and each form in turn
// this many times),
// BENCH_FLAGS (extra `bench run` flags for every runner run, e.g. "--vu-threads 0"), BENCH_CLI (dist/bench.js),
// BENCH_NODE_ARGS (node flags for the runner, e.g. "--cpu-prof --cpu-prof-dir=prof"), BENCH_ENDPOINT_CPU (the CPU the
// endpoint is pinned to; the last one by default), BENCH_TIMELINE (1: each form once more with `--out json`, and
// where its drops and slow requests fell against the steal share and the CPU stalls (benchmarks/stall-probe/main.go)
// of each second: benchmarks/drop-timeline.ts).
// `make bench-runner` runs it (not part of `make test`).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { choiceKnob, intKnob, KnobError, positiveKnob, readKnobs } from './bench-knobs';
import {
  type JsonPoint,
  parseStalls,
  type Second,
  type Stall,
  splitSeconds,
  Timeline,
} from './drop-timeline';
import { goTools, VEGETA_MODULE } from './go-tools';
import { parseVegetaJson, replayUnderK6Rule } from './k6-drop-rule';
import { CpuSampler } from './proc-stats';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The two script forms: `sync` is k6's usual `http.get(url)`, `async` awaits `http.asyncRequest`. */
type Form = 'sync' | 'async';
const {
  RATE,
  SECONDS,
  VUS,
  SLOW_RATE,
  SLOW_SECONDS,
  START_VUS,
  START_RATE,
  START_SECONDS,
  FIRST_RUNS,
  FIRST_SECONDS,
  ENDPOINT_CPU,
  FORMS,
  TIMELINE,
  ROUNDS,
} = readKnobs(() => ({
  RATE: positiveKnob('BENCH_RATE', 2000),
  SECONDS: positiveKnob('BENCH_SECONDS', 30),
  VUS: intKnob('BENCH_VUS', 20),
  SLOW_RATE: positiveKnob('BENCH_SLOW_RATE', 10),
  SLOW_SECONDS: positiveKnob('BENCH_SLOW_SECONDS', 10),
  START_VUS: intKnob('BENCH_START_VUS', 100),
  START_RATE: positiveKnob('BENCH_START_RATE', 100),
  START_SECONDS: positiveKnob('BENCH_START_SECONDS', 10),
  FIRST_RUNS: intKnob('BENCH_FIRST_RUNS', 8, 0),
  FIRST_SECONDS: positiveKnob('BENCH_FIRST_SECONDS', 2),
  ENDPOINT_CPU: cpuKnob(),
  FORMS: choiceKnob('BENCH_FORMS', ['sync,async', 'sync', 'async'] as const, 'sync,async').split(
    ',',
  ) as Form[],
  TIMELINE: choiceKnob('BENCH_TIMELINE', ['0', '1'] as const, '0') === '1',
  ROUNDS: intKnob('BENCH_ROUNDS', 3),
}));
const CLI = resolve(root, process.env.BENCH_CLI ?? 'dist/bench.js');
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
const FLAGS = (process.env.BENCH_FLAGS ?? '').split(' ').filter(Boolean);

/** The CPU the endpoint is pinned to: the last one unless BENCH_ENDPOINT_CPU names another. */
function cpuKnob(): number {
  const cpus = availableParallelism();
  const cpu = intKnob('BENCH_ENDPOINT_CPU', cpus - 1, 0);
  if (cpu >= cpus)
    throw new KnobError(`BENCH_ENDPOINT_CPU: expected a CPU number below ${cpus}, got "${cpu}"`);
  return cpu;
}

/** One client's figures over one measured window. */
interface Figures {
  requests: number;
  /** Requests completed per second over the whole measured duration. */
  rate: number;
  /** Process CPU (user + system) per request in the middle of the window, µs (NaN without /proc). */
  cpuUs: number;
  /** Process CPU over the middle of the window as a share of one CPU (NaN without /proc). */
  cpuShare: number;
  /** Voluntary context switches per second of all the process's threads over the same window: its wake-ups. */
  wakeUps: number;
  p50: number;
  p99: number;
  dropped: number;
  /** vegeta only: its own hits replayed through k6's drop rule with the runner's VU count (benchmarks/k6-drop-rule.ts). */
  droppedUnderK6Rule?: number;
  /** bench_iteration_start_lag; for vegeta, how late its hits began against its pacer's times (lower bounds). */
  lagP50: number;
  lagP99: number;
  peakRss: number;
  /** Share of the window the process's busiest thread was on a CPU. */
  busiestThread: number;
  /** The endpoint's CPU per request over the same window, µs. */
  endpointUs: number;
  steal: number;
  /** Epoch ms from the process's spawn to the first scenario's start (runner: the end of setup()). */
  readyMs: number;
  /** Second by second, and the probe's stalls (runner runs with a timeline only: BENCH_TIMELINE=1). */
  timeline?: { seconds: Second[]; stalls: Stall[] };
}

let endpointPid = 0;

async function startEndpoint(binary: string): Promise<{ url: string; proc: ChildProcess }> {
  const proc = spawn('taskset', ['-c', String(ENDPOINT_CPU), binary], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, GOMAXPROCS: '1' },
  });
  const port = await new Promise<string>((done, fail) => {
    proc.once('error', fail);
    proc.stdout?.once('data', (d) => done(String(d).trim()));
  });
  return { url: `http://127.0.0.1:${port}/`, proc };
}

/** What `sampler` used over the middle 80% of [start, start + seconds], and that window's length in seconds. */
function middle(sampler: CpuSampler, start: number, seconds: number) {
  const from = start + seconds * 100;
  const to = start + seconds * 900;
  const used = sampler.between(from, to);
  const s = (to - from) / 1000;
  return { from, to, s, used, cpuShare: used.cpu / s, wakeUps: used.switches / s };
}

/** CPU figures of `sampler` over the middle 80% of [start, start + seconds]. */
function windowed(sampler: CpuSampler, endpoint: CpuSampler, start: number, seconds: number, rate: number) {
  const { from, to, s, used, cpuShare, wakeUps } = middle(sampler, start, seconds);
  const ep = endpoint.between(from, to);
  const requests = rate * s;
  return {
    cpuUs: (used.cpu / requests) * 1e6,
    cpuShare,
    wakeUps,
    busiestThread: used.busiestThread,
    endpointUs: (ep.cpu / requests) * 1e6,
    steal: used.steal,
  };
}

function closed(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => child.on('close', (code) => done(code)));
}

async function runVegeta(
  vegeta: string,
  url: string,
  rate: number,
  seconds: number,
  vus: number,
): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-vegeta-'));
  try {
    const results = join(dir, 'results.bin');
    const started = Date.now();
    const child = spawn(
      vegeta,
      ['attack', `-rate=${rate}/1s`, `-duration=${seconds}s`, `-output=${results}`],
      {
        stdio: ['pipe', 'ignore', 'inherit'],
      },
    );
    const sampler = new CpuSampler(child.pid ?? 0);
    const endpoint = new CpuSampler(endpointPid);
    child.stdin?.end(`GET ${url}\n`);
    const code = await closed(child);
    sampler.stop();
    endpoint.stop();
    if (code !== 0) throw new Error(`vegeta attack exited with ${code}`);
    const report = JSON.parse(
      execFileSync(vegeta, ['report', '-type=json', results], { encoding: 'utf8' }),
    ) as {
      requests: number;
      success: number;
      latencies: Record<string, number>;
    };
    const requests = report.requests;
    const decoded = join(dir, 'results.json');
    execFileSync(vegeta, ['encode', '-to=json', `-output=${decoded}`, results]);
    const replay = replayUnderK6Rule(parseVegetaJson(readFileSync(decoded, 'utf8')), rate, vus);
    return {
      requests,
      rate: requests / seconds,
      ...windowed(sampler, endpoint, started, seconds, requests / seconds),
      p50: report.latencies['50th'] / 1e6,
      p99: report.latencies['99th'] / 1e6,
      dropped: Math.round(requests * (1 - report.success)),
      droppedUnderK6Rule: replay.dropped,
      lagP50: replay.lagP50,
      lagP99: replay.lagP99,
      peakRss: sampler.peakRssBytes,
      readyMs: 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Node's own floor for the slow test: a process that only runs an empty timer at the test's rate, sampled like the
 * clients. What a Node process pays per wake-up on this machine before any runner code runs.
 */
async function runNodeFloor(rate: number, seconds: number): Promise<{ cpuShare: number; wakeUps: number }> {
  const child = spawn(process.execPath, ['-e', `setInterval(() => {}, ${1000 / rate})`], { stdio: 'ignore' });
  const sampler = new CpuSampler(child.pid ?? 0);
  const started = Date.now();
  await new Promise((done) => setTimeout(done, seconds * 1000));
  sampler.stop();
  child.kill();
  await closed(child);
  const { cpuShare, wakeUps } = middle(sampler, started, seconds);
  return { cpuShare, wakeUps };
}

/** The k6 script of one runner run: one constant-arrival-rate scenario in the given form. */
function script(o: {
  url: string;
  form: Form;
  rate: number;
  seconds: number;
  vus: number;
  figures: string;
}): string {
  return `
import http from 'k6/http';
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['p(50)', 'p(99)', 'count'],
  scenarios: {
    load: { executor: 'constant-arrival-rate', rate: ${o.rate}, timeUnit: '1s', duration: '${o.seconds}s', preAllocatedVUs: ${o.vus}, maxVUs: ${o.vus} },
  },
};
export function setup() { return { t0: Date.now() }; }
${
  o.form === 'sync'
    ? `export default function () { http.get('${o.url}'); }`
    : `export default async function () { await http.asyncRequest('GET', '${o.url}'); }`
}
export function handleSummary(data) {
  const m = data.metrics;
  const v = (name, stat) => (m[name] ? m[name].values[stat] : NaN);
  const figures = {
    t0: data.setup_data.t0, count: v('http_req_duration', 'count'),
    p50: v('http_req_duration', 'p(50)'), p99: v('http_req_duration', 'p(99)'),
    dropped: v('dropped_iterations', 'count') || 0,
    lagP50: v('bench_iteration_start_lag', 'p(50)'), lagP99: v('bench_iteration_start_lag', 'p(99)'),
  };
  return { ${JSON.stringify(o.figures)}: JSON.stringify(figures) };
}
`;
}

async function runBench(
  form: Form,
  url: string,
  rate: number,
  seconds: number,
  vus: number,
  /** Also write the samples (`--out json`) and make a timeline, counting requests slower than `slowMs`, beside `probe`. */
  timeline?: { slowMs: number; probe: string },
): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-runner-'));
  try {
    const file = join(dir, 'script.js');
    const figuresFile = join(dir, 'figures.json');
    const samplesFile = join(dir, 'samples.ndjson');
    writeFileSync(file, script({ url, form, rate, seconds, vus, figures: figuresFile }));
    const out = timeline ? ['--out', `json=${samplesFile}`] : [];
    const probe = timeline ? startProbe(timeline.probe) : undefined;
    const spawned = Date.now();
    const child = spawn(process.execPath, [...NODE_ARGS, CLI, 'run', '-q', ...FLAGS, ...out, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const sampler = new CpuSampler(child.pid ?? 0);
    const endpoint = new CpuSampler(endpointPid);
    let stderr = '';
    child.stdout?.on('data', (d) => {
      if (NODE_ARGS.length > 0) process.stdout.write(d);
    });
    child.stderr?.on('data', (d) => {
      stderr += String(d);
      if (NODE_ARGS.length > 0) process.stderr.write(d);
    });
    const code = await closed(child);
    sampler.stop();
    endpoint.stop();
    const stalls = parseStalls((await probe?.stop()) ?? '');
    if (code !== 0) throw new Error(`bench run exited with ${code}:\n${stderr}`);
    const f = JSON.parse(readFileSync(figuresFile, 'utf8'));
    return {
      requests: f.count,
      rate: f.count / seconds,
      ...windowed(sampler, endpoint, f.t0, seconds, f.count / seconds),
      p50: f.p50,
      p99: f.p99,
      dropped: f.dropped,
      lagP50: f.lagP50,
      lagP99: f.lagP99,
      peakRss: sampler.peakRssBytes,
      readyMs: f.t0 - spawned,
      timeline: timeline && {
        seconds: await readTimeline(samplesFile, f.t0, seconds, timeline.slowMs, sampler, stalls),
        stalls,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The stall probe (benchmarks/stall-probe/main.go) beside one run: 2 ms and longer, so that the report shows how often
 * shorter ones come too. stop() closes its stdin and resolves with what it printed.
 */
function startProbe(binary: string): { stop: () => Promise<string> } {
  const child = spawn(binary, ['2'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let text = '';
  child.stdout?.on('data', (d) => {
    text += String(d);
  });
  return {
    stop: async () => {
      child.stdin?.end();
      await closed(child);
      return text;
    },
  };
}

/** The seconds of a run's `--out json` samples, with the machine's steal share and longest CPU stall in each. */
async function readTimeline(
  file: string,
  t0: number,
  seconds: number,
  slowMs: number,
  sampler: CpuSampler,
  stalls: Stall[],
): Promise<Second[]> {
  const timeline = new Timeline(t0, Math.ceil(seconds), slowMs);
  // Some 900,000 lines at 2000/s for 30 s: only the two metrics counted are parsed.
  for await (const line of createInterface({ input: createReadStream(file) }))
    if (line.includes('"metric":"dropped_iterations"') || line.includes('"metric":"http_req_duration"'))
      timeline.add(JSON.parse(line) as JsonPoint);
  timeline.setSteal(sampler.machineReadings());
  timeline.setStalls(stalls);
  return timeline.seconds;
}

const ms = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(3)} ms`);
const us = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(0)} µs`);
const mb = (v: number) => (Number.isNaN(v) ? 'n/a' : `${(v / 1e6).toFixed(1)} MB`);
const pct = (v: number) => (Number.isNaN(v) ? 'n/a' : `${(v * 100).toFixed(1)}%`);
const x = (a: number, b: number) => (Number.isNaN(a / b) ? 'n/a' : `${(a / b).toFixed(2)}x`);
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const FORM_NAME: Record<Form, string> = {
  sync: 'bench, sync `http.get`',
  async: 'bench, async `await http.asyncRequest`',
};

/** A second's steal share, or a stall of one CPU, from which the second counts as stalled. */
const STALLED = { steal: 0.02, stallMs: 8 };

/**
 * BENCH_TIMELINE=1: each form again, its samples written (`--out json`, which costs the runner CPU of its own) beside
 * the stall probe, and its drops and over-the-bound requests split into the test's first second, the seconds in which
 * a CPU was unavailable for long, and the rest.
 */
async function printTimelines(url: string, slowMs: number, probe: string): Promise<void> {
  console.log(
    `\n1b. where the drops fell: each form again with --out json, beside a probe of CPU stalls (benchmarks/stall-probe); stalled seconds: steal >= ${pct(STALLED.steal)} or a CPU unavailable >= ${STALLED.stallMs} ms; slow: over ${ms(slowMs)}, twice vegeta's p99\n`,
  );
  console.log(
    '| client | first second: dropped, slow | stalled seconds | dropped there | slow there | other seconds | dropped there | slow there | CPU stalls >= 2 ms / >= 8 ms (longest) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  const lines: string[] = [];
  for (const form of FORMS) {
    const f = await runBench(form, url, RATE, SECONDS, VUS, { slowMs, probe });
    const seconds = f.timeline?.seconds ?? [];
    const stalls = f.timeline?.stalls ?? [];
    const { start, stalled, rest } = splitSeconds(seconds, STALLED);
    const share = (n: number, of: number) => `${n} (${pct(n / of)})`;
    const longest = stalls.reduce((m, x) => Math.max(m, x.lateMs), 0);
    console.log(
      `| ${FORM_NAME[form]} | ${start.drops}, ${share(start.slow, start.requests)} | ${stalled.seconds} | ${stalled.drops} | ${share(stalled.slow, stalled.requests)} | ${rest.seconds} | ${rest.drops} | ${share(rest.slow, rest.requests)} | ${stalls.length} / ${stalls.filter((x) => x.lateMs >= STALLED.stallMs).length} (${longest.toFixed(1)} ms) |`,
    );
    lines.push(
      `   ${form}: seconds with drops (second: dropped, steal, longest CPU stall): ${
        seconds
          .map((sec, i) =>
            sec.drops > 0 ? `${i}: ${sec.drops}, ${pct(sec.steal)}, ${sec.stallMs.toFixed(1)} ms` : '',
          )
          .filter(Boolean)
          .join('; ') || 'none'
      }`,
    );
  }
  console.log(`\n${lines.join('\n')}`);
}

async function main(): Promise<void> {
  const tools = goTools(root);
  const { url, proc } = await startEndpoint(tools.endpoint);
  endpointPid = proc.pid ?? 0;
  try {
    const version = execFileSync(process.execPath, [CLI, 'version'], { encoding: 'utf8' }).trim();
    console.log(
      `endpoint ${url}: Go net/http (benchmarks/bench-endpoint/main.go) on CPU ${ENDPOINT_CPU}, GOMAXPROCS=1; ${process.platform}/${process.arch}, ${availableParallelism()} CPUs, node ${process.versions.node}; ${version}; vegeta ${VEGETA_MODULE.split('@')[1]}`,
    );
    console.log(`load average at start: ${load()}\n`);

    console.log(
      `1. ${RATE}/s for ${SECONDS} s, ${VUS} pre-allocated VUs, discardResponseBodies (each client alone), ${ROUNDS} round${ROUNDS > 1 ? 's' : ''} of vegeta then each form: every ratio is to the vegeta of its round`,
    );
    // Rounds, so that a slow minute of the machine (it has them: the endpoint's own CPU per request rises with
    // them) shows up as one round off rather than as the runner's figure.
    const rounds: { vegeta: Figures; forms: Map<Form, Figures> }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const vegeta = await runVegeta(tools.vegeta, url, RATE, SECONDS, VUS);
      const forms = new Map<Form, Figures>();
      for (const form of FORMS) forms.set(form, await runBench(form, url, RATE, SECONDS, VUS));
      rounds.push({ vegeta, forms });
    }
    console.log(
      '\n| round | client | CPU per request | dropped | p50 / p99 | start lag p50 / p99 | peak RSS | busiest thread | endpoint CPU per request |',
    );
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const [r, { vegeta, forms }] of rounds.entries()) {
      const row = (name: string, f: Figures, ratios: boolean) =>
        console.log(
          `| ${r + 1} | ${name} | ${us(f.cpuUs)}${ratios ? ` (${x(f.cpuUs, vegeta.cpuUs)})` : ''} | ${f.dropped}${f.droppedUnderK6Rule === undefined ? '' : ` (k6's rule: ${f.droppedUnderK6Rule})`} | ${ms(f.p50)} / ${ms(f.p99)}${ratios ? ` (p99 ${x(f.p99, vegeta.p99)})` : ''} | ${ms(f.lagP50)} / ${ms(f.lagP99)} | ${mb(f.peakRss)} | ${pct(f.busiestThread)} | ${us(f.endpointUs)} |`,
        );
      row(`vegeta ${VEGETA_MODULE.split('@')[1]} (Go, open model)`, vegeta, false);
      for (const [form, f] of forms) row(FORM_NAME[form], f, true);
    }
    console.log('');
    for (const [r, { vegeta, forms }] of rounds.entries()) {
      for (const [form, f] of forms) {
        console.log(
          `   round ${r + 1}, ${form}: ${f.requests} requests (${f.rate.toFixed(1)}/s); steal ${pct(f.steal)}. Goals: CPU per request ${x(f.cpuUs, vegeta.cpuUs)} <= 1.5x ${verdict(f.cpuUs <= 1.5 * vegeta.cpuUs)}; dropped ${f.dropped} ${verdict(f.dropped === 0)} (vegeta's run under k6's rule: ${vegeta.droppedUnderK6Rule}); p99 ${x(f.p99, vegeta.p99)} <= 2x ${verdict(f.p99 <= 2 * vegeta.p99)}`,
        );
      }
      console.log(
        `   round ${r + 1}, vegeta: ${vegeta.requests} requests (${vegeta.rate.toFixed(1)}/s); steal ${pct(vegeta.steal)}`,
      );
    }
    const vegeta = rounds[rounds.length - 1].vegeta;
    if (TIMELINE) await printTimelines(url, 2 * vegeta.p99, tools.stallProbe);

    console.log(`\n2. a slow test: ${SLOW_RATE}/s for ${SLOW_SECONDS} s (${VUS} VUs)\n`);
    console.log(
      '| client | CPU (share of one CPU) | CPU per request | wake-ups/s (all threads) | start lag p50 / p99 |',
    );
    console.log('| --- | --- | --- | --- | --- |');
    const slowVegeta = await runVegeta(tools.vegeta, url, SLOW_RATE, SLOW_SECONDS, VUS);
    console.log(
      `| vegeta | ${pct(slowVegeta.cpuShare)} | ${us(slowVegeta.cpuUs)} | ${slowVegeta.wakeUps.toFixed(0)} | n/a |`,
    );
    for (const form of FORMS) {
      const f = await runBench(form, url, SLOW_RATE, SLOW_SECONDS, VUS);
      console.log(
        `| ${FORM_NAME[form]} | ${pct(f.cpuShare)} | ${us(f.cpuUs)} | ${f.wakeUps.toFixed(0)} | ${ms(f.lagP50)} / ${ms(f.lagP99)} |`,
      );
    }
    const floor = await runNodeFloor(SLOW_RATE, SLOW_SECONDS);
    console.log(
      `| node, an empty timer at ${SLOW_RATE}/s (no requests) | ${pct(floor.cpuShare)} | n/a | ${floor.wakeUps.toFixed(0)} | n/a |`,
    );

    console.log(
      `\n3. VU start-up: ${START_VUS} sync VUs at ${START_RATE}/s for ${START_SECONDS} s, against 1 VU at the same rate\n`,
    );
    const one = await runBench('sync', url, START_RATE, START_SECONDS, 1);
    const many = await runBench('sync', url, START_RATE, START_SECONDS, START_VUS);
    const extra = START_VUS - 1;
    const perVuMs = (many.readyMs - one.readyMs) / extra;
    const perVuRss = (many.peakRss - one.peakRss) / extra;
    console.log('| VUs | ready after (spawn to setup()) | peak RSS | p99 | dropped |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const [n, f] of [
      [1, one],
      [START_VUS, many],
    ] as const)
      console.log(
        `| ${n} | ${(f.readyMs / 1000).toFixed(2)} s | ${mb(f.peakRss)} | ${ms(f.p99)} | ${f.dropped} |`,
      );
    console.log(
      `\n   per extra VU: ${perVuMs.toFixed(1)} ms to start (goal <= 30 ms: ${verdict(perVuMs <= 30)}), ${mb(perVuRss)} resident (goal <= 10 MB: ${verdict(perVuRss <= 10e6)}); ${START_VUS} VUs ready ${(many.readyMs / 1000).toFixed(2)} s after spawn (goal <= 3 s: ${verdict(many.readyMs <= 3000)})`,
    );
    if (FIRST_RUNS > 0) {
      console.log(
        `\n4. a test's first seconds: ${FIRST_RUNS} runs of ${FIRST_SECONDS} s per form at ${RATE}/s with ${VUS} VUs, where every VU opens its connection and the runner's code is not yet optimised\n`,
      );
      console.log('| client | dropped, run by run | runs with drops | dropped in all |');
      console.log('| --- | --- | --- | --- |');
      const clients: [string, () => Promise<number>][] = [
        [
          "vegeta, its hits under k6's rule",
          async () => (await runVegeta(tools.vegeta, url, RATE, FIRST_SECONDS, VUS)).droppedUnderK6Rule ?? 0,
        ],
        ...FORMS.map((form): [string, () => Promise<number>] => [
          FORM_NAME[form],
          async () => (await runBench(form, url, RATE, FIRST_SECONDS, VUS)).dropped,
        ]),
      ];
      // Run by run in turn, so that a noisy minute of the machine falls on every client alike.
      const dropped = clients.map((): number[] => []);
      for (let i = 0; i < FIRST_RUNS; i++)
        for (const [c, [, run]] of clients.entries()) dropped[c].push(await run());
      for (const [c, [name]] of clients.entries()) {
        console.log(
          `| ${name} | ${dropped[c].join(', ')} | ${dropped[c].filter((d) => d > 0).length} of ${FIRST_RUNS} | ${dropped[c].reduce((a, b) => a + b, 0)} |`,
        );
      }
    }
    console.log(`\nload average at end: ${load()}`);
  } finally {
    proc.stdin?.end();
  }
}

await main();
