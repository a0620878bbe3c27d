// Runs the definitions of turbopuffer's benchmark tool (tpuf-benchmark's tpufbench, Go) against a fresh emulator, made
// small (benchmarks/tpuf-definition.ts): TRY_DOCS documents, at most TRY_QPS queries a second from TRY_CONCURRENCY
// workers, TRY_SECONDS of measuring (the tool's --duration), and the tool's `random` datasource wherever it serves the
// templates; the templates, the request shapes, are unchanged. Definitions whose templates need text keep the
// CohereMSMarco datasource, served from small random stand-in files in the tool's dataset cache
// (benchmarks/msmarco-standin.ts). The tool, its definitions and its binary stay out of the repository: both are
// passed by path. Prints per definition the exit code, queries sent, failed requests and seconds
// (benchmarks/tpuf-benchmark-report.ts); that is how emulator/README.md's figures for the tool are made.
// The emulator runs in a network namespace of its own with only loopback up (unshare -n), and each run of the tool
// joins that namespace (nsenter), so nothing leaves the machine (the tool probes a cloud metadata address and
// downloads data sets when its cache lacks them); each run is killed at TRY_TIMEOUT seconds (300).
// Usage: make try-tpuf-benchmark TPUF_BENCHMARK=<tpufbench binary> TPUF_BENCHMARK_DEFS=<dir of .toml definitions>
//        [TRY_DOCS=2000] [TRY_SECONDS=20] [TRY_QPS=4] [TRY_CONCURRENCY=4] [TRY_TIMEOUT=300]
import { type ChildProcess, spawn } from 'node:child_process';
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intKnob, KnobError, readKnobs } from './bench-knobs';
import { LOOPBACK_ONLY, runBounded } from './loopback-only';
import { msmarcoStandIns } from './msmarco-standin';
import { type DefinitionRun, renderReport } from './tpuf-benchmark-report';
import { smallDefinition } from './tpuf-definition';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const bench = join(root, 'bin', 'bench.js');

const knobs = readKnobs(() => {
  const binary = process.env.TPUF_BENCHMARK || undefined;
  const defs = process.env.TPUF_BENCHMARK_DEFS || undefined;
  const build =
    'go build -o tpufbench ./cmd/tpufbench in a checkout of github.com/turbopuffer/tpuf-benchmark';
  if (binary === undefined)
    throw new KnobError(
      `TPUF_BENCHMARK: expected the path of a built tpufbench binary (${build}), got nothing`,
    );
  let runnable = false;
  try {
    runnable = statSync(binary).isFile();
    accessSync(binary, constants.X_OK);
  } catch {
    runnable = false;
  }
  if (!runnable)
    throw new KnobError(
      `TPUF_BENCHMARK: expected the path of an executable tpufbench binary (${build}), got "${binary}" (not an executable file)`,
    );
  if (defs === undefined)
    throw new KnobError(
      "TPUF_BENCHMARK_DEFS: expected a directory of the tool's .toml definitions (its benchmarks/ folder), got nothing",
    );
  let isDir = false;
  try {
    isDir = statSync(defs).isDirectory();
  } catch {}
  if (!isDir)
    throw new KnobError(
      `TPUF_BENCHMARK_DEFS: expected a directory of the tool's .toml definitions (its benchmarks/ folder), got "${defs}" (not a directory)`,
    );
  return {
    command: `make try-tpuf-benchmark TPUF_BENCHMARK=${binary} TPUF_BENCHMARK_DEFS=${defs}`,
    binary: resolve(binary),
    defs: resolve(defs),
    documents: intKnob('TRY_DOCS', 2000),
    seconds: intKnob('TRY_SECONDS', 20),
    qps: intKnob('TRY_QPS', 4),
    concurrency: intKnob('TRY_CONCURRENCY', 4),
    timeoutSeconds: intKnob('TRY_TIMEOUT', 300),
  };
});

/** Every .toml file under `from`, sorted. */
function definitions(from: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const path = join(from, entry.name);
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.')) found.push(...definitions(path));
    } else if (entry.name.endsWith('.toml')) found.push(path);
  }
  return found.sort();
}

/** The emulator in its own loopback-only namespace; resolves with its base URL once it prints it. */
function startEmulator(child: ChildProcess): Promise<string> {
  return new Promise((done, fail) => {
    let out = '';
    let err = '';
    const timer = setTimeout(
      () => fail(new Error(`the emulator printed no base URL within 30 s: ${err}`)),
      30_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk;
      if (out.includes('\n')) {
        clearTimeout(timer);
        done(out.split('\n')[0].trim());
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (err += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the emulator exited ${code} before printing its base URL: ${err}`));
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'bench-tpuf-benchmark-'));
const emulator = spawn(
  LOOPBACK_ONLY[0],
  [...LOOPBACK_ONLY.slice(1), process.execPath, bench, 'emulator', '--port', '0'],
  {
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
let current: ChildProcess | undefined;

function stopAll(): void {
  if (current?.pid !== undefined && current.exitCode === null && current.signalCode === null)
    process.kill(-current.pid, 'SIGKILL');
  if (emulator.exitCode === null && emulator.signalCode === null) emulator.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    stopAll();
    process.exit(130);
  });

/** The stand-in files for CohereMSMarco, written once into the tool's dataset cache (one file, linked by each name). */
function writeStandIns(cache: string): void {
  mkdirSync(cache, { recursive: true });
  const written = new Map<Uint8Array, string>();
  for (const [name, bytes] of msmarcoStandIns(Math.max(1000, Math.ceil(knobs.documents / 60)), 200)) {
    const path = join(cache, name);
    const first = written.get(bytes);
    if (first !== undefined) symlinkSync(first, path);
    else {
      writeFileSync(path, bytes);
      written.set(bytes, path);
    }
  }
}

function runDefinition(path: string, index: number, endpoint: string, cache: string): Promise<DefinitionRun> {
  const name = relative(knobs.defs, path);
  let small: ReturnType<typeof smallDefinition>;
  try {
    small = smallDefinition(readFileSync(path, 'utf8'), knobs);
  } catch (error) {
    const output = `Error: not made small: ${error instanceof Error ? error.message : String(error)}`;
    return Promise.resolve({ definition: name, exitCode: 2, seconds: 0, output, queriesCsv: undefined });
  }
  const dir = join(work, `run-${index}`);
  mkdirSync(dir);
  const definition = join(dir, 'definition.toml');
  writeFileSync(definition, small.toml);
  const output = join(dir, 'results');
  if (emulator.pid === undefined) throw new Error('the emulator has no process id');
  const argv = [
    'nsenter',
    `--target=${emulator.pid}`,
    '--user',
    '--net',
    '--preserve-credentials',
    '--',
    knobs.binary,
    'run',
    '--endpoint',
    endpoint,
    '--namespace-prefix',
    `try_${process.pid}_${index}`,
    '--output-dir',
    output,
    '--duration',
    `${knobs.seconds}s`,
    definition,
  ];
  return runBounded(argv, {
    cwd: dir,
    timeoutMs: knobs.timeoutSeconds * 1000,
    // A dummy key: the emulator accepts any, and the tool refuses to start without one.
    env: { ...process.env, TURBOPUFFER_API_KEY: 'try-tpuf-benchmark', DATASET_CACHE_DIR: cache },
    onSpawn: (child) => {
      current = child;
    },
  }).then((ran) => {
    let queriesCsv: string | undefined;
    try {
      queriesCsv = readFileSync(join(output, 'queries.csv'), 'utf8');
    } catch {}
    return { definition: name, ...ran, queriesCsv };
  });
}

try {
  const paths = definitions(knobs.defs);
  if (paths.length === 0) {
    process.stderr.write(`${knobs.command}: no .toml definitions under ${knobs.defs}\n`);
    process.exitCode = 2;
  } else {
    const endpoint = await startEmulator(emulator);
    const cache = join(work, 'dataset-cache');
    writeStandIns(cache);
    const runs: DefinitionRun[] = [];
    for (const [index, path] of paths.entries()) {
      const result = await runDefinition(path, index, endpoint, cache);
      process.stderr.write(
        `${result.exitCode ?? 'killed'} ${result.definition} (${result.seconds.toFixed(0)} s)\n`,
      );
      runs.push(result);
    }
    process.stdout.write(renderReport(runs, knobs.command));
  }
} finally {
  stopAll();
}
