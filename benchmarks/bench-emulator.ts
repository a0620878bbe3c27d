// Emulator figures on generated data (issue 4's performance list): ingest MB/s of upsert bodies accepted, strong
// query latency over an unindexed backlog, indexing vectors/s, eventual ANN p50 and recall@10, resident memory
// against the raw vector bytes, and how much a 40 MB write stalls concurrent queries. Runs `bench emulator` as a
// child process (dist/, as users run it, with --latency-model none) and drives it over loopback from this process.
//
//   npx tsx benchmarks/bench-emulator.ts                 # 1M x 768, random and clustered (the lead's quiet machine)
//   BENCH_N=20000 npx tsx benchmarks/bench-emulator.ts   # quick check
//
// Knobs: BENCH_N (rows, default 1000000), BENCH_DIMS (768), BENCH_DATA (random|clustered|both), BENCH_QUERIES (100),
// BENCH_WARMUP_QUERIES (50: eventual queries before the measured ones; their p50 is printed too),
// BENCH_EMULATOR_NODE_ARGS (node flags for the emulator processes, e.g. "--cpu-prof --cpu-prof-dir=prof"),
// BENCH_BODY_MB (40: upsert body size), BENCH_WRITERS (2: concurrent writers), BENCH_CACHE (where generated upsert
// bodies are kept between runs; default <tmpdir>/bench-emulator-data). Bodies are generated before any timing starts
// (~4 GB per 1M x 768 dataset) and each phase's bodies are read into memory before it (2 GB, then 4 GB, of this
// process's memory at 1M), so the client's CPU eats as little as it can into the figures on a 2-core machine.
// Every figure line ends with the machine's CPU steal share over its phase (/proc/stat): on a shared VM the hypervisor's
// share moves these figures more than most code changes do.

import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, stopProcess } from '../cli/experiments/with-emulator';
import { formatBytes } from '../core/sizes';
import { seededRandom } from '../emulator/vector/random';
import type { Consistency } from '../lib/turbopuffer-wire';
import { choiceKnob, intKnob, readKnobs } from './bench-knobs';
import { type MachineTicks, machineTicks, stealShare } from './proc-stats';

const { N, DIMS, QUERIES, WARMUP_QUERIES, BODY_MB, WRITERS, DATA } = readKnobs(() => ({
  N: intKnob('BENCH_N', 1_000_000),
  DIMS: intKnob('BENCH_DIMS', 768),
  QUERIES: intKnob('BENCH_QUERIES', 100),
  WARMUP_QUERIES: intKnob('BENCH_WARMUP_QUERIES', 50),
  BODY_MB: intKnob('BENCH_BODY_MB', 40),
  WRITERS: intKnob('BENCH_WRITERS', 2),
  DATA: choiceKnob('BENCH_DATA', ['random', 'clustered', 'both'] as const, 'both'),
}));
type Kind = 'random' | 'clustered';

/** Rows per upsert body: base64 of 4·dims bytes plus JSON punctuation and the id. */
const ROWS_PER_BODY = Math.max(1, Math.floor((BODY_MB * 1e6) / (Math.ceil((4 * DIMS) / 3) * 4 + 12)));

// ---- data: seeded, generated batch by batch so the client never holds the whole set ----

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
}

const CLUSTERS = 1000;
let centers: Float32Array | null = null;
function clusterCenters(): Float32Array {
  if (centers) return centers;
  const random = seededRandom(7);
  centers = new Float32Array(CLUSTERS * DIMS);
  for (let i = 0; i < centers.length; i++) centers[i] = gaussian(random);
  return centers;
}

/** Rows [from, from+count) of a dataset, normalised: i.i.d. Gaussian, or 1,000 Gaussian clusters (sigma 0.3). */
function vectors(kind: Kind, from: number, count: number): Float32Array {
  const out = new Float32Array(count * DIMS);
  const random = seededRandom(from * 2654435761 + (kind === 'random' ? 1 : 2));
  const c = kind === 'clustered' ? clusterCenters() : null;
  for (let r = 0; r < count; r++) {
    const base = c ? Math.floor(random() * CLUSTERS) * DIMS : 0;
    let norm = 0;
    for (let d = 0; d < DIMS; d++) {
      const x = c ? c[base + d] + 0.3 * gaussian(random) : gaussian(random);
      out[r * DIMS + d] = x;
      norm += x * x;
    }
    const inv = 1 / Math.sqrt(norm);
    for (let d = 0; d < DIMS; d++) out[r * DIMS + d] *= inv;
  }
  return out;
}

function upsertBody(kind: Kind, from: number, count: number): Buffer {
  const data = vectors(kind, from, count);
  const ids: number[] = [];
  const b64: string[] = [];
  for (let r = 0; r < count; r++) {
    ids.push(from + r);
    b64.push(Buffer.from(data.buffer, r * DIMS * 4, DIMS * 4).toString('base64'));
  }
  return Buffer.from(
    `{"upsert_columns":{"id":${JSON.stringify(ids)},"vector":${JSON.stringify(b64)}},` +
      '"distance_metric":"cosine_distance","disable_backpressure":true}',
  );
}

// ---- HTTP and measurement helpers ----

// node:http rather than fetch: undici's fetch spent several times the CPU of http.request sending the same bodies
// over loopback (docs/emulator-measurements.md §1), and on 2 cores the client's CPU is taken from the emulator being
// measured.
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function call(url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const payload =
    body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: payload === undefined ? 'GET' : 'POST',
        headers:
          payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(payload.length) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          let json: Record<string, unknown>;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch (error) {
            reject(new Error(`${url}: HTTP ${status}, body is not JSON: ${(error as Error).message}`));
            return;
          }
          if (status !== 200)
            reject(new Error(`${url}: HTTP ${status} ${JSON.stringify(json).slice(0, 200)}`));
          else resolve({ status, json });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function rssBytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

const fmt = (x: number, digits = 1) => x.toFixed(digits);

/** Upsert bodies of a dataset on disk, generated once (before any timing) and reused by later runs. */
function bodyFiles(kind: Kind, rows: number): string[] {
  const dir = join(
    process.env.BENCH_CACHE ?? join(tmpdir(), 'bench-emulator-data'),
    `${kind}-${DIMS}d-${ROWS_PER_BODY}r`,
  );
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  const started = performance.now();
  let generated = 0;
  for (let from = 0; from < rows; from += ROWS_PER_BODY) {
    const count = Math.min(ROWS_PER_BODY, rows - from);
    const file = join(dir, `${String(from).padStart(9, '0')}-${count}.json`);
    if (!existsSync(file)) {
      writeFileSync(`${file}.tmp`, upsertBody(kind, from, count));
      // Rename last so an interrupted run never leaves a half body behind.
      renameSync(`${file}.tmp`, file);
      generated++;
    }
    files.push(file);
  }
  if (generated > 0)
    console.log(
      `(generated ${generated} upsert bodies in ${fmt((performance.now() - started) / 1000, 1)} s, cached in ${dir})`,
    );
  return files;
}

/**
 * Reads a phase's bodies into memory before it is timed. The client shares the machine's CPUs with the emulator, so
 * its own work during the timed loop is taken from the emulator: reading each body inside the loop cost the client
 * about twice the CPU per MB of bodies from the page cache, and from disk, once the cached datasets (8 GB at 1M)
 * no longer all stayed in the page cache, it halved the ingest figure (docs/emulator-measurements.md §1 and §3).
 * Returns the bodies and the seconds it took.
 */
function loadBodies(files: string[]): { bodies: Buffer[]; seconds: number } {
  const started = performance.now();
  const bodies = files.map((file) => readFileSync(file));
  return { bodies, seconds: (performance.now() - started) / 1000 };
}

/** Sends the bodies with WRITERS concurrent writers. Returns bytes and seconds. */
async function ingest(base: string, bodies: Buffer[]): Promise<{ bytes: number; seconds: number }> {
  let next = 0;
  let bytes = 0;
  const started = performance.now();
  const writer = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      await call(`${base}/v2/namespaces/bench`, body);
      bytes += body.length;
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

async function waitUpToDate(base: string, timeoutS: number): Promise<void> {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const meta = await call(`${base}/v2/namespaces/bench/metadata`);
    if ((meta.json.index as { status: string }).status === 'up-to-date') return;
    if (Date.now() > deadline)
      throw new Error(`not indexed after ${timeoutS} s: ${JSON.stringify(meta.json.index)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function queryLatencies(
  base: string,
  kind: Kind,
  count: number,
  consistency: Consistency,
): Promise<number[]> {
  const queries = vectors(kind, 10_000_000, count);
  const times: number[] = [];
  for (let q = 0; q < count; q++) {
    const started = performance.now();
    await call(`${base}/v2/namespaces/bench/query`, {
      rank_by: ['vector', 'ANN', Array.from(queries.subarray(q * DIMS, (q + 1) * DIMS))],
      top_k: 10,
      consistency: { level: consistency },
    });
    times.push(performance.now() - started);
  }
  return times;
}

/** Sequential eventual queries while one 40 MB write lands: worst latency during the write vs the baseline p50. */
async function stall(
  base: string,
  kind: Kind,
): Promise<{ baselineP50: number; worstDuring: number; writeMs: number; loopMaxMs: number }> {
  const baseline = await queryLatencies(base, kind, 20, 'eventual');
  const body = upsertBody(kind, N, ROWS_PER_BODY);
  let writing = true;
  const during: number[] = [];
  const query = Array.from(vectors(kind, 20_000_000, 1));
  const loop = (async () => {
    while (writing) {
      const started = performance.now();
      await call(`${base}/v2/namespaces/bench/query`, {
        rank_by: ['vector', 'ANN', query],
        top_k: 10,
        consistency: { level: 'eventual' },
      });
      during.push(performance.now() - started);
    }
  })();
  await call(`${base}/_emulator/stats?reset=true`);
  const started = performance.now();
  await call(`${base}/v2/namespaces/bench`, body);
  const writeMs = performance.now() - started;
  writing = false;
  await loop;
  const stats = await call(`${base}/_emulator/stats`);
  const loopMaxMs = (stats.json.event_loop_delay as { max_ms: number }).max_ms;
  return { baselineP50: percentile(baseline, 50), worstDuring: Math.max(...during), writeMs, loopMaxMs };
}

async function withEmulator<T>(
  flags: string[],
  run: (base: string, child: ChildProcess) => Promise<T>,
): Promise<T> {
  // The engine's own figures: without the latency model (its waits are timers, not engine work, and the group
  // commit would cap ingest at the writers' batches per second).
  const { child, baseUrl } = await startEmulator(['--latency-model', 'none', ...flags]);
  try {
    return await run(baseUrl, child);
  } finally {
    await stopProcess(child);
  }
}

async function benchmark(kind: Kind): Promise<void> {
  const rawBytes = N * DIMS * 4;
  console.log(
    `\n## ${kind}: ${N} x ${DIMS} f32 (${formatBytes(rawBytes)} raw), bodies of ${ROWS_PER_BODY} rows, ${WRITERS} writers`,
  );

  // A: indexing held (1 KiB/s): ingest into the backlog, then strong queries over half of it unindexed.
  const backlogRows = Math.min(N, Math.max(1, Math.round(Math.ceil(N / ROWS_PER_BODY) / 2)) * ROWS_PER_BODY);
  const files = bodyFiles(kind, N);
  const backlogFiles = files.slice(0, Math.max(1, Math.round(files.length / 2)));
  const phaseA = loadBodies(backlogFiles);
  console.log(`(read ${backlogFiles.length} bodies into memory in ${fmt(phaseA.seconds, 1)} s)`);
  await withEmulator(['--index-throughput', '1KiB', '--backlog-limit', '1TiB'], async (base) => {
    let ticks = machineTicks();
    const cpuBefore = await cpuNow(base);
    const write = await ingest(base, phaseA.bodies);
    const cpuAfter = await cpuNow(base);
    console.log(
      `ingest (indexing held): ${fmt(write.bytes / 1e6 / write.seconds)} MB/s of upsert bodies accepted ` +
        `(${formatBytes(write.bytes)} in ${fmt(write.seconds, 2)} s, ${fmt(backlogRows / write.seconds, 0)} vectors/s; ${stealSince(ticks)})`,
    );
    console.log(`  ${cpuLine(cpuBefore, cpuAfter, write)}`);
    ticks = machineTicks();
    const strong = await queryLatencies(base, kind, Math.min(QUERIES, 30), 'strong');
    console.log(
      `strong ANN over ${backlogRows} unindexed vectors: p50 ${fmt(percentile(strong, 50))} ms, p90 ${fmt(percentile(strong, 90))} ms (${stealSince(ticks)})`,
    );
  });

  // B: unpaced indexing: ingest everything, wait for up-to-date, then the query figures.
  // Phase A's 2 GB (at 1M) can go before phase B's 4 GB are read.
  phaseA.bodies.length = 0;
  const phaseB = loadBodies(files);
  console.log(`(read ${files.length} bodies into memory in ${fmt(phaseB.seconds, 1)} s)`);
  await withEmulator([], async (base, child) => {
    const started = performance.now();
    let ticks = machineTicks();
    const write = await ingest(base, phaseB.bodies);
    await waitUpToDate(base, 3600);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `ingest + indexing: ${fmt(N / seconds, 0)} vectors/s from first write to up-to-date (${fmt(seconds, 1)} s; ` +
        `ingest alone ${fmt(write.bytes / 1e6 / write.seconds)} MB/s while indexing; ${stealSince(ticks)})`,
    );
    const rss = rssBytes(child);
    console.log(
      `resident memory after indexing: ${formatBytes(rss)} = ${fmt(rss / rawBytes, 2)} x the raw vector bytes`,
    );
    // Warm-up: each scan worker is its own isolate that JIT-compiles its loops and tiers up the wasm on first use, and
    // the first queries after up-to-date share the CPU with the last background work. Shown, not hidden.
    const warmup = await queryLatencies(base, kind, WARMUP_QUERIES, 'eventual');
    ticks = machineTicks();
    const eventual = await queryLatencies(base, kind, QUERIES, 'eventual');
    const eventualSteal = stealSince(ticks);
    const recall = await call(`${base}/v1/namespaces/bench/_debug/recall`, {
      num: Math.min(QUERIES, 100),
      top_k: 10,
    });
    console.log(
      `eventual ANN: p50 ${fmt(percentile(eventual, 50))} ms, p90 ${fmt(percentile(eventual, 90))} ms (${QUERIES} queries, top 10, ` +
        `after ${WARMUP_QUERIES} warm-up queries: p50 ${fmt(percentile(warmup, 50))} ms); ` +
        `recall@10 ${fmt(recall.json.avg_recall as number, 3)} (_debug/recall, ${Math.min(QUERIES, 100)} stored vectors; queries: ${eventualSteal})`,
    );
    ticks = machineTicks();
    const s = await stall(base, kind);
    console.log(
      `${BODY_MB} MB write during queries: worst query ${fmt(s.worstDuring)} ms vs baseline p50 ${fmt(s.baselineP50)} ms ` +
        `-> stall ${fmt(Math.max(0, s.worstDuring - s.baselineP50))} ms; longest event-loop block in the emulator ` +
        `${fmt(s.loopMaxMs)} ms (write took ${fmt(s.writeMs, 0)} ms; ${stealSince(ticks)})`,
    );
  });
}

interface CpuReading {
  /** The emulator's CPU ms by thread (GET /_emulator/stats thread_cpu_ms), null off Linux. */
  emulator: Record<string, number> | null;
  /** This process's (the client's) CPU ms. */
  client: number;
}

async function cpuNow(base: string): Promise<CpuReading> {
  const stats = await call(`${base}/_emulator/stats`);
  const usage = process.cpuUsage();
  return {
    emulator: stats.json.thread_cpu_ms as Record<string, number> | null,
    client: (usage.user + usage.system) / 1000,
  };
}

/**
 * Where the CPU went during an ingest, per MB of bodies: the emulator's request thread, its prefault thread (commits
 * the pages of the rows to come and quantises fresh rows), its search and index workers, the rest of the emulator
 * (V8's GC helpers, libuv), and this client; then how many of the machine's CPUs were busy on average. An ingest that
 * keeps every CPU busy is bound by this machine's CPU, and the split says which work to cut.
 */
function cpuLine(before: CpuReading, after: CpuReading, write: { bytes: number; seconds: number }): string {
  if (!before.emulator || !after.emulator) return 'CPU per thread: n/a (needs Linux /proc)';
  const delta = (role: string) => (after.emulator?.[role] ?? 0) - (before.emulator?.[role] ?? 0);
  const workers = Object.keys(after.emulator)
    .filter((role) => role.startsWith('scan_') || role === 'indexer')
    .reduce((sum, role) => sum + delta(role), 0);
  const parts: [string, number][] = [
    ['emulator request thread', delta('main')],
    ['prefault thread', delta('prefault')],
    ['search and index workers', workers],
    ['rest of the emulator (GC helpers, libuv)', delta('other')],
    ['client', after.client - before.client],
  ];
  const mb = write.bytes / 1e6;
  const total = parts.reduce((sum, [, ms]) => sum + ms, 0);
  const busy = total / 1000 / write.seconds;
  return (
    `CPU per MB of bodies: ${parts.map(([name, ms]) => `${name} ${fmt(ms / mb, 2)} ms`).join(', ')}; ` +
    `${fmt(busy, 2)} of ${availableParallelism()} CPUs busy on average`
  );
}

/** The share of the machine's CPU time the hypervisor stole since `from` (a VM's noise, printed beside each figure). */
function stealSince(from: MachineTicks): string {
  const share = stealShare(from, machineTicks());
  return Number.isNaN(share) ? 'steal n/a' : `steal ${(share * 100).toFixed(1)}%`;
}

/** The 1/5/15-minute load averages: the machine is shared, so every figure is printed with the load around it. */
const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')}`;

console.log(`# bench-emulator (node ${process.version}, BENCH_N=${N}, BENCH_DIMS=${DIMS}; ${load()})`);
for (const kind of DATA === 'both' ? (['random', 'clustered'] as const) : [DATA as Kind]) {
  await benchmark(kind);
  console.log(`(${kind} done; ${load()})`);
}
agent.destroy();
