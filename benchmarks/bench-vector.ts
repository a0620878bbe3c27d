// Engine-level benchmark of the emulator's vector engine (emulator/vector/): append, indexing rate, eventual ANN
// latency and recall@10, a strong query (ANN + exact scan of an unindexed tail) and resident memory, on generated
// data, with the worker pool the emulator uses. Baselines in the same run: ANN against an exact scan of the same
// indexed rows, appends with against without prefaulting. Prints figures and the targets beside them; not
// part of `make test`.
//
//   npm run build && npx tsx benchmarks/bench-vector.ts
//   knobs (env): BENCH_ROWS (default 1000000), BENCH_DIMS (768), BENCH_DATA (random|clustered|lowrank, default random),
//                BENCH_METRIC (cosine_distance|euclidean_squared), BENCH_TAIL (unindexed rows for the strong query,
//                default half of BENCH_ROWS), BENCH_QUERIES (default 50), BENCH_WORKERS (default: CPU count)
import { createVectorColumn, measureRecall, WorkerPoolExecutor } from '../emulator/vector/index';
import { clusteredVectors, lowrankVectors, randomVectors, row } from '../emulator/vector/synthetic';
import type { DistanceMetric } from '../emulator/vector/types';
import { choiceKnob, intKnob, KnobError, readKnobs } from './bench-knobs';

interface Knobs {
  rows: number;
  dims: number;
  data: 'random' | 'clustered' | 'lowrank';
  metric: DistanceMetric;
  tail: number;
  queries: number;
  workers: number | undefined;
}

function knobs(): Knobs {
  const rows = intKnob('BENCH_ROWS', 1_000_000, 1000);
  const tail = intKnob('BENCH_TAIL', Math.floor(rows / 2), 0);
  if (tail >= rows)
    throw new KnobError(`BENCH_TAIL: expected a number below BENCH_ROWS (${rows}), got "${tail}"`);
  const workers = process.env.BENCH_WORKERS ? intKnob('BENCH_WORKERS', 2, 1) : undefined;
  return {
    rows,
    dims: intKnob('BENCH_DIMS', 768, 1),
    data: choiceKnob('BENCH_DATA', ['random', 'clustered', 'lowrank'] as const, 'random'),
    metric: choiceKnob('BENCH_METRIC', ['cosine_distance', 'euclidean_squared'] as const, 'cosine_distance'),
    tail,
    queries: intKnob('BENCH_QUERIES', 50, 1),
    workers,
  };
}

const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number): string => `${x.toFixed(1)} ms`;
const MB = 1024 * 1024;

async function main(): Promise<void> {
  const k = readKnobs(knobs);
  const make = { random: randomVectors, clustered: clusteredVectors, lowrank: lowrankVectors }[k.data];
  const pool = new WorkerPoolExecutor({
    workers: k.workers,
    workerUrl: new URL('../dist/vector-engine.worker.js', import.meta.url),
  });
  const column = createVectorColumn({ dims: k.dims, metric: k.metric, threads: pool });
  const rawBytes = k.rows * k.dims * 4;
  const rssBefore = process.memoryUsage().rss;
  console.log(
    `bench-vector: ${k.rows} x ${k.dims} ${k.data} (${k.metric}), ${k.tail} unindexed for the strong query, ` +
      `${pool.parallelism} scan workers, ${k.queries} queries`,
  );

  // 1. Append in 10k-row batches (generation time excluded).
  const batch = 10_000;
  let appendMs = 0;
  for (let at = 0; at < k.rows; at += batch) {
    const n = Math.min(batch, k.rows - at);
    const vectors = make(n, k.dims, 1000 + at);
    const t = performance.now();
    column.append(vectors);
    appendMs += performance.now() - t;
  }
  console.log(
    `append          ${((rawBytes / MB / appendMs) * 1000).toFixed(0)} MB/s of f32 (${ms(appendMs)} total)`,
  );

  // 2. Index the prefix in 64k-row batches, as the emulator's indexer would.
  const indexed = k.rows - k.tail;
  const t0 = performance.now();
  for (let to = Math.min(65_536, indexed); ; to = Math.min(to + 65_536, indexed)) {
    await column.indexTo(to);
    if (to === indexed) break;
  }
  const indexMs = performance.now() - t0;
  console.log(
    `indexing        ${((indexed / indexMs) * 1000).toFixed(0)} vectors/s (${indexed} rows in ${ms(indexMs)}; target >= 20000/s)`,
  );

  // 3. Eventual: ANN over the index alone, one query at a time; recall@10 against an exact scan of the same rows.
  const fresh = make(k.queries, k.dims, 7);
  const queries = Array.from({ length: k.queries }, (_, i) => row(fresh, k.dims, i));
  // Warm-up: every worker isolate JIT-compiles its selection loops and tiers up the wasm on first use.
  for (const q of queries.slice(0, 10)) {
    await column.ann(q, { k: 10 });
    await column.scan(q, { from: 0, to: indexed }, { k: 10 });
  }
  const annMs: number[] = [];
  const exactMs: number[] = [];
  let annRows = 0;
  for (const q of queries) {
    let t = performance.now();
    const r = await column.ann(q, { k: 10 });
    annMs.push(performance.now() - t);
    annRows += r.stats.annRows;
    t = performance.now();
    await column.scan(q, { from: 0, to: indexed }, { k: 10 });
    exactMs.push(performance.now() - t);
  }
  const recall = await measureRecall(column, { queries, k: 10 });
  const target = { random: 'p50 <= 50 ms', clustered: 'p50 <= 10 ms', lowrank: 'none set' }[k.data];
  console.log(
    `eventual ANN    p50 ${ms(percentile(annMs, 50))}, p95 ${ms(percentile(annMs, 95))}, recall@10 ${recall.avgRecall.toFixed(3)}, ` +
      `${Math.round(annRows / k.queries)} rows scored/query (target at 1M x 768: ${target}, recall >= 0.9)`,
  );
  console.log(
    `baseline exact  p50 ${ms(percentile(exactMs, 50))} over the same ${indexed} rows (ANN speed-up x${(
      percentile(exactMs, 50) / percentile(annMs, 50)
    ).toFixed(1)})`,
  );

  // 4. Strong: index results and an exact scan of the whole unindexed tail, concurrently (as the emulator does).
  if (k.tail > 0) {
    const strongMs: number[] = [];
    const tailMs: number[] = [];
    for (const q of queries) {
      let t = performance.now();
      await Promise.all([column.ann(q, { k: 10 }), column.scan(q, { from: indexed, to: k.rows }, { k: 10 })]);
      strongMs.push(performance.now() - t);
      t = performance.now();
      await column.scan(q, { from: indexed, to: k.rows }, { k: 10 });
      tailMs.push(performance.now() - t);
    }
    console.log(
      `strong query    p50 ${ms(percentile(strongMs, 50))}, p95 ${ms(percentile(strongMs, 95))}; tail scan alone p50 ` +
        `${ms(percentile(tailMs, 50))} over ${k.tail} rows (target: <= 100 ms over 500k unindexed)`,
    );
  }

  // 5. Memory.
  const rss = process.memoryUsage().rss;
  console.log(
    `resident memory ${(rss / MB).toFixed(0)} MiB, ${(rss / rawBytes).toFixed(2)}x the raw vector bytes ` +
      `(${(rawBytes / MB).toFixed(0)} MiB; growth while loading ${((rss - rssBefore) / rawBytes).toFixed(2)}x; target <= 1.5x)`,
  );
  await column.close();
  await pool.close();

  // 6. Baseline for the append figure: the same batches into a column without a prefaulter (in-thread executor),
  // where the request thread pays the first touch of every fresh page itself.
  const baselineRows = Math.min(k.rows, 100_000);
  const plain = createVectorColumn({ dims: k.dims, metric: k.metric, threads: 'in-thread' });
  let plainMs = 0;
  let pooledMs = 0;
  const pool2 = new WorkerPoolExecutor({
    workers: 1,
    workerUrl: new URL('../dist/vector-engine.worker.js', import.meta.url),
  });
  const pooled = createVectorColumn({ dims: k.dims, metric: k.metric, threads: pool2 });
  for (let at = 0; at < baselineRows; at += batch) {
    const vectors = make(Math.min(batch, baselineRows - at), k.dims, 1000 + at);
    let t = performance.now();
    plain.append(vectors);
    plainMs += performance.now() - t;
    t = performance.now();
    pooled.append(vectors);
    pooledMs += performance.now() - t;
  }
  const mb = (baselineRows * k.dims * 4) / MB;
  console.log(
    `append baseline ${((mb / plainMs) * 1000).toFixed(0)} MB/s without prefaulting vs ${((mb / pooledMs) * 1000).toFixed(0)} MB/s with it ` +
      `(first ${baselineRows} rows, alternating batches)`,
  );
  await plain.close();
  await pooled.close();
  await pool2.close();
}

await main();
