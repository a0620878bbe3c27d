// `bench run --instances N` (a bench extension): one test as N execution segments, each in its own `bench run`
// process on this machine, coordinated by the process the user started. The coordinator runs setup() once and hands
// its data to every instance (as k6-operator does), gathers each instance's samples live from its --out json stream
// on a pipe, and does everything else on the merged samples: thresholds (also abortOnFail, which k6-operator cannot
// evaluate across instances), the summary and handleSummary, --out and --summary-export, then teardown() once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { type RunArg, splitRunArgs } from '../cli/flags';
import { usageError } from '../errors';
import { EXIT_EXTERNAL_ABORT } from '../exit-codes';
import { JsonSampleReader, readLines } from '../merge/json-samples';
import type { Aggregator } from '../metrics/aggregator';
import type { MetricRegistry } from '../metrics/registry';
import type { RemoteScenarios } from '../run-test';

/** The env var through which an instance gets the file holding setup()'s result (empty: it returned nothing). */
export const SETUP_DATA_ENV = 'BENCH_INSTANCE_SETUP_DATA';

/** Flags the coordinator keeps for itself: the instances write one JSON stream each, nothing else. */
const COORDINATOR_FLAGS = new Set([
  'instances',
  'out',
  'summary-export',
  'summary-mode',
  'quiet',
  'no-thresholds',
]);
/** Flags that contradict --instances: the coordinator chooses every instance's segment. */
const SEGMENT_FLAGS = new Set(['execution-segment', 'execution-segment-sequence']);

/** `0,1/N,2/N,…,1` and the segments of it. */
export function evenSequence(n: number): { sequence: string; segments: string[] } {
  const point = (i: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  return {
    sequence: Array.from({ length: n + 1 }, (_, i) => point(i)).join(','),
    segments: Array.from({ length: n }, (_, i) => `${point(i)}:${point(i + 1)}`),
  };
}

/**
 * The arguments of instance `index`: the user's flags without those the coordinator keeps, its segment, and a JSON
 * stream on stdout, then the script.
 */
export function instanceArgs(argv: string[], script: string, n: number, index: number): string[] {
  const { sequence, segments } = evenSequence(n);
  const args: RunArg[] = splitRunArgs(argv);
  const bad = args.find((a) => a.flag && SEGMENT_FLAGS.has(a.flag.name));
  if (bad?.flag)
    throw usageError(
      `--${bad.flag.name} cannot be combined with --instances: --instances ${n} runs the segments of ${sequence}`,
      'drop one of them (run single segments with --execution-segment, on this machine or elsewhere)',
    );
  const kept = args.filter((a) => a.flag && !COORDINATOR_FLAGS.has(a.flag.name)).flatMap((a) => a.tokens);
  return [
    'run',
    ...kept,
    '--execution-segment',
    segments[index],
    '--execution-segment-sequence',
    sequence,
    '--quiet',
    '--summary-mode',
    'disabled',
    '--no-thresholds',
    '--out',
    'json=-',
    script,
  ];
}

interface Instance {
  index: number;
  segment: string;
  child: ChildProcess;
  vus: number;
  vusMax: number;
  exit: Promise<number>;
}

/** The scenarios of `bench run --instances n`, run by n child processes of this runner. */
export function instancesHost(opts: {
  argv: string[];
  /** The script's path (a script read from stdin was written to a file first). */
  script: string;
  n: number;
  env: NodeJS.ProcessEnv;
  /** Where the instances' log lines go (prefixed with the instance). */
  stderr: NodeJS.WritableStream;
}): RemoteScenarios {
  const { n } = opts;
  const { sequence, segments } = evenSequence(n);
  const argsOf = Array.from({ length: n }, (_, i) => instanceArgs(opts.argv, opts.script, n, i));
  const instances: Instance[] = [];
  return {
    description: `local, ${n} instances (bench --instances ${n}: the segments of ${sequence}, one process each)`,
    vus: () => ({
      active: instances.reduce((sum, i) => sum + i.vus, 0),
      initialized: instances.reduce((sum, i) => sum + i.vusMax, 0),
    }),
    async run({ aggregator, registry, setupData, aborted, abort }) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-instances-'));
      const setupFile = join(dir, 'setup-data.json');
      writeFileSync(setupFile, setupData ?? '');
      let stopping = false;
      const stopAll = () => {
        stopping = true;
        for (const i of instances) if (i.child.exitCode === null) i.child.kill('SIGINT');
      };
      // A coordinator that dies takes its instances along (they run in their own process groups).
      const killAll = () => {
        for (const i of instances) if (i.child.exitCode === null) i.child.kill('SIGKILL');
      };
      process.once('exit', killAll);
      try {
        for (let index = 0; index < n; index++)
          instances.push(
            startInstance(
              index,
              segments[index],
              argsOf[index],
              aggregator,
              { ...opts, registry },
              setupFile,
            ),
          );
        void aborted.then(stopAll);
        await Promise.all(
          instances.map(async (i) => {
            const code = await i.exit;
            // An instance that stopped because the test was stopping (105 after our signal) is not an error.
            if (code === 0 || (stopping && code === EXIT_EXTERNAL_ABORT)) return;
            abort(code, `instance ${i.index + 1} of ${n} (segment ${i.segment}) exited with code ${code}`);
          }),
        );
      } finally {
        process.off('exit', killAll);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function startInstance(
  index: number,
  segment: string,
  args: string[],
  aggregator: Aggregator,
  opts: { n: number; registry: MetricRegistry; env: NodeJS.ProcessEnv; stderr: NodeJS.WritableStream },
  setupFile: string,
): Instance {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...args], {
    env: { ...opts.env, [SETUP_DATA_ENV]: setupFile },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: a Ctrl+C reaches the coordinator alone, which stops the instances gracefully.
    detached: true,
  });
  const instance: Instance = { index, segment, child, vus: 0, vusMax: 0, exit: Promise.resolve(0) };
  // vus and vus_max are per instance: the coordinator samples their sums instead (RemoteScenarios.vus).
  const reader = new JsonSampleReader(
    opts.registry,
    (sample) => {
      if (sample.metric === 'vus') instance.vus = sample.value;
      else if (sample.metric === 'vus_max') instance.vusMax = sample.value;
      else aggregator.addLocal(sample);
    },
    `instance ${index + 1}`,
  );
  const prefix = `[instance ${index + 1}/${opts.n}] `;
  const decoder = new StringDecoder('utf8');
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + decoder.write(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) opts.stderr.write(`${prefix}${l}\n`);
  });
  const samples = readLines(child.stdout as NodeJS.ReadableStream & AsyncIterable<Buffer>, (l) =>
    reader.line(l),
  );
  instance.exit = new Promise<number>((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code) => {
      if (partial) opts.stderr.write(`${prefix}${partial}\n`);
      instance.vus = 0;
      resolve(code ?? 1);
    });
  }).then(async (code) => {
    await samples.catch((e: Error) => opts.stderr.write(`${prefix}${e.message}\n`));
    return code;
  });
  return instance;
}
