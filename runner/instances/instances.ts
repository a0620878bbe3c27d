// `bench run --instances N` (a bench extension): one test as N execution segments, each in its own `bench run`
// process on this machine, coordinated by the process the user started. The instances start first and initialise
// their VUs while the coordinator runs setup() once; each then gets setup's data on stdin (as k6-operator hands it
// to its runners) and starts its scenarios. The coordinator gathers each instance's samples live from its --out
// json stream as they grow and does everything else on the merged samples: thresholds (also abortOnFail, which
// k6-operator cannot evaluate across instances), the summary and handleSummary, --out and --summary-export, then
// teardown() once.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { type RunArg, splitRunArgs } from '../cli/flags';
import { BenchError, usageError } from '../errors';
import { EXIT_EXTERNAL_ABORT } from '../exit-codes';
import { followFile, JsonSampleReader } from '../merge/json-samples';
import type { MetricRegistry } from '../metrics/registry';
import type { SampleInput } from '../modules/module-host';
import { DASHBOARD_VARIABLES } from '../outputs/web-dashboard/config';
import type { RemoteScenarios } from '../run-test';

/** Set in an instance's environment: it reads setup()'s result from stdin (setupDataFromStdin). */
export const INSTANCE_ENV = 'BENCH_INSTANCE';

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
 * The arguments of instance `index`: the user's flags without those the coordinator keeps, its segment, and its
 * --out json file `stream`, then the script.
 */
export function instanceArgs(
  argv: string[],
  script: string,
  n: number,
  index: number,
  stream: string,
): string[] {
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
    `json=${stream}`,
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
  // Each instance's samples go to a file the coordinator follows as it grows: a file never blocks or fails a
  // writer the way a pipe or socket to a busy reader can.
  let dir = '';
  const streamOf = (i: number) => join(dir, `instance-${i + 1}.ndjson`);
  // Flags that contradict --instances fail here, before the script loads.
  instanceArgs(opts.argv, opts.script, n, 0, '');
  const instances: Instance[] = [];
  /** Set once the instances got setup's data: from then on their exit codes are the test's. */
  let running = false;
  let stopping = false;
  let sink: ((sample: SampleInput) => void) | undefined;
  let registry: MetricRegistry | undefined;
  const pending: SampleInput[] = [];
  // Samples that arrive before run() (an instance's init-time output) wait for the aggregator.
  const deliver = (sample: SampleInput) => (sink ? sink(sample) : pending.push(sample));
  const alive = () => instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
  // A coordinator that dies takes its instances along (they run in their own process groups).
  const killAll = () => {
    for (const i of alive()) i.child.kill('SIGKILL');
  };
  return {
    description: `local, ${n} instances (bench --instances ${n}: the segments of ${sequence}, one process each)`,
    vus: () => ({
      active: instances.reduce((sum, i) => sum + i.vus, 0),
      initialized: instances.reduce((sum, i) => sum + i.vusMax, 0),
    }),
    start() {
      process.once('exit', killAll);
      dir = mkdtempSync(join(tmpdir(), 'bench-instances-'));
      for (let index = 0; index < n; index++) {
        const args = instanceArgs(opts.argv, opts.script, n, index, streamOf(index));
        instances.push(
          startInstance(index, segments[index], args, streamOf(index), deliver, () => registry, opts),
        );
      }
    },
    async run(ctx) {
      registry = ctx.registry;
      sink = (sample) => ctx.aggregator.addLocal(sample);
      for (const sample of pending.splice(0)) sink(sample);
      const stopAll = () => {
        stopping = true;
        for (const i of alive()) i.child.kill('SIGINT');
      };
      void ctx.aborted.then(stopAll);
      running = true;
      // Every instance starts its scenarios when it reads setup's data: all at about the same instant.
      for (const i of instances)
        i.child.stdin?.end(`${JSON.stringify({ setupData: ctx.setupData ?? null })}\n`);
      await Promise.all(
        instances.map(async (i) => {
          const code = await i.exit;
          // An instance that stopped because the test was stopping (105 after our signal) is not an error.
          if (code === 0 || (stopping && code === EXIT_EXTERNAL_ABORT)) return;
          ctx.abort(code, `instance ${i.index + 1} of ${n} (segment ${i.segment}) exited with code ${code}`);
        }),
      );
    },
    async stop() {
      // Instances that never got setup's data (setup failed, the run was aborted first) are told to go.
      if (!running) stopping = true;
      for (const i of alive()) {
        i.child.stdin?.end();
        i.child.kill('SIGINT');
      }
      const late = setTimeout(killAll, STOP_GRACE_MS);
      await Promise.all(instances.map((i) => i.exit));
      clearTimeout(late);
      process.off('exit', killAll);
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** How long stopping instances get before they are killed. */
const STOP_GRACE_MS = 10_000;

/**
 * An instance's setup data, sent by its coordinator on stdin as one JSON line once setup() returned. Rejects when the
 * coordinator closes stdin without it (setup failed, or the test was stopped first).
 */
export async function setupDataFromStdin(stdin: NodeJS.ReadableStream): Promise<string | undefined> {
  let text = '';
  for await (const chunk of stdin) text += chunk.toString();
  const line = text.split('\n')[0];
  if (line.trim() === '')
    throw new BenchError('the coordinating bench run ended before setup() finished', EXIT_EXTERNAL_ABORT);
  const { setupData } = JSON.parse(line) as { setupData: string | null };
  return setupData ?? undefined;
}

function startInstance(
  index: number,
  segment: string,
  args: string[],
  stream: string,
  deliver: (sample: SampleInput) => void,
  registry: () => MetricRegistry | undefined,
  opts: { n: number; env: NodeJS.ProcessEnv; stderr: NodeJS.WritableStream },
): Instance {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...args], {
    env: { ...withoutDashboard(opts.env), [INSTANCE_ENV]: '1' },
    stdio: ['pipe', 'ignore', 'pipe'],
    // Its own process group: a Ctrl+C reaches the coordinator alone, which stops the instances gracefully.
    detached: true,
  });
  const prefix = `[instance ${index + 1}/${opts.n}] `;
  const instance: Instance = { index, segment, child, vus: 0, vusMax: 0, exit: Promise.resolve(0) };
  // vus and vus_max are per instance: the coordinator samples their sums instead (RemoteScenarios.vus).
  const onSample = (sample: SampleInput) => {
    if (sample.metric === 'vus') instance.vus = sample.value;
    else if (sample.metric === 'vus_max') instance.vusMax = sample.value;
    else deliver(sample);
  };
  let reader: JsonSampleReader | undefined;
  let warned = false;
  const onLine = (line: string) => {
    const known = registry();
    // Before run() the registry is unknown; Metric lines come again before nothing else needs them.
    reader ??= known ? new JsonSampleReader(known, onSample, `instance ${index + 1}`) : undefined;
    try {
      reader?.line(line);
    } catch (error) {
      // Keep reading whatever comes: a stalled pipe would block the instance.
      if (!warned) opts.stderr.write(`${prefix}${(error as Error).message}\n`);
      warned = true;
    }
  };
  const decoder = new StringDecoder('utf8');
  let partial = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    const lines = (partial + decoder.write(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) opts.stderr.write(`${prefix}${l}\n`);
  });
  child.stdin?.on('error', () => {
    // An instance that already exited closed its stdin: nothing to hand it.
  });
  const exited = new Promise<number>((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (code) => {
      if (partial) opts.stderr.write(`${prefix}${partial}\n`);
      instance.vus = 0;
      resolve(code ?? 1);
    });
  });
  const samples = followFile(stream, onLine, exited);
  instance.exit = exited.then(async (code) => {
    await samples.catch((e: Error) => opts.stderr.write(`${prefix}${e.message}\n`));
    return code;
  });
  return instance;
}

/** The coordinator alone draws the web dashboard (from every instance's samples): its variables stay here. */
function withoutDashboard(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of DASHBOARD_VARIABLES) delete out[name];
  return out;
}
