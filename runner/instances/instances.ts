// `bench run --instances N` (a bench extension): one test as N execution segments, each in its own `bench run`
// process on this machine, coordinated by the process the user started. The instances start first and initialise
// their VUs; once every one has said so (a line on its stdout) the coordinator runs setup() once, as k6 runs setup
// only after every VU is initialised (scripts such as experiment 1 schedule their phases from setup()'s end). Each
// instance then gets setup's data on stdin (as k6-operator hands it to its runners) and starts its scenarios. The
// coordinator gathers each instance's samples live from its --out json stream as they grow and does everything
// else on the merged samples: thresholds (also abortOnFail, which k6-operator cannot evaluate across instances),
// the summary and handleSummary, --out and --summary-export, then teardown() once.
//
// No instance outlives its coordinator: a coordinator that ends, fails or is signalled stops them (SIGINT, then
// SIGKILL after a grace period), one that runs past the scenarios' end by OVERRUN_MS stops them, and an instance
// whose stdin closes (the coordinator died, even by SIGKILL) stops itself.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { BenchError, usageError } from '../../core/errors';
import { EXIT_EXTERNAL_ABORT, EXIT_GENERIC_ERROR, EXIT_GENERIC_TIMEOUT } from '../../core/exit-codes';
import type { HandedSetup, RemoteScenarios } from '../engine/lifecycle';
import { followFile, JsonSampleReader } from '../merge/json-samples';
import type { MetricRegistry } from '../metrics/registry';
import type { SampleInput } from '../metrics/sample';
import { type RunArg, splitRunArgs } from '../options/run-flags';
import { DASHBOARD_VARIABLES } from '../outputs/web-dashboard/config';
import { createOwnedDir, INSTANCES_DIR_PREFIX } from '../owned-temp-dirs';

/** Set in an instance's environment: it talks to its coordinator through stdin and stdout (coordinatorLink). */
export const INSTANCE_ENV = 'BENCH_INSTANCE';
/** The line an instance writes on stdout once its VUs are initialised. */
const READY_LINE = '{"bench_instance":"ready"}';

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
function evenSequence(n: number): { sequence: string; segments: string[] } {
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
function instanceArgs(argv: string[], script: string, n: number, index: number, stream: string): string[] {
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
  /** Resolves once the instance's VUs are initialised; rejects if it exits first. */
  ready: Promise<void>;
  /** Its exit code (1 when killed by a signal), once its stream is read to the end too. */
  exit: Promise<number>;
}

/** The line on an instance's stdin once setup() returned. */
interface SetupLine {
  setupData: string | null;
  startAtMs: number;
}

/**
 * How long after setup() the instances start their scenarios, together: enough for the line to reach every instance
 * on a loaded machine, well inside the spare tick experiment 1 leaves between setup's end and its t0.
 */
const START_DELAY_MS = 300;
/** How long stopping instances get before they are killed. */
const STOP_GRACE_MS = 10_000;
/** How long instances may run past the scenarios' end (their outputs closing) before the test stops them. */
const OVERRUN_MS = 60_000;

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
  /** Set once the instances are being stopped: an exit with 105 (after our signal) is then not an error. */
  let stopping = false;
  let sink: ((sample: SampleInput) => void) | undefined;
  let registry: MetricRegistry | undefined;
  const pending: SampleInput[] = [];
  // Samples that arrive before run() (an instance's init-time output) wait for the aggregator.
  const deliver = (sample: SampleInput) => (sink ? sink(sample) : pending.push(sample));
  const alive = () => instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null);
  // Resolved when the instances are killed: what their streams hold then is left unread, so stopping stays bounded
  // however much an instance wrote.
  let abandon: () => void = () => {};
  const abandoned = new Promise<void>((resolve) => {
    abandon = resolve;
  });
  // The instances run in their own process groups (a Ctrl+C reaches the coordinator alone, which stops them
  // gracefully), so nothing kills them unless this process does.
  const killAll = () => {
    for (const i of alive()) i.child.kill('SIGKILL');
    abandon();
  };
  let killTimer: NodeJS.Timeout | undefined;
  /** Tells every running instance to stop (stdin closed, SIGINT) and kills those still running after the grace. */
  const stopAll = () => {
    stopping = true;
    for (const i of alive()) {
      i.child.stdin?.end();
      i.child.kill('SIGINT');
    }
    killTimer ??= setTimeout(killAll, STOP_GRACE_MS);
  };
  return {
    description: `local, ${n} instances (bench --instances ${n}: the segments of ${sequence}, one process each)`,
    vus: () => ({
      active: instances.reduce((sum, i) => sum + i.vus, 0),
      initialized: instances.reduce((sum, i) => sum + i.vusMax, 0),
    }),
    async start(aborted) {
      process.once('exit', killAll);
      const owned = createOwnedDir(tmpdir(), INSTANCES_DIR_PREFIX);
      for (const stale of owned.removed)
        opts.stderr.write(`bench: removed ${stale}, left by a bench run --instances that was killed\n`);
      dir = owned.dir;
      for (let index = 0; index < n; index++) {
        const args = instanceArgs(opts.argv, opts.script, n, index, streamOf(index));
        instances.push(
          startInstance(
            index,
            segments[index],
            args,
            streamOf(index),
            deliver,
            () => registry,
            abandoned,
            opts,
          ),
        );
      }
      const ready = Promise.all(instances.map((i) => i.ready));
      // A failure after an abort is stop()'s business.
      ready.catch(() => {});
      await Promise.race([ready, aborted]);
    },
    async run(ctx) {
      registry = ctx.registry;
      sink = (sample) => ctx.aggregator.addLocal(sample);
      for (const sample of pending.splice(0)) sink(sample);
      void ctx.aborted.then(stopAll);
      // Every instance starts its scenarios at the same instant, soon after it reads setup's data. Their stdin stays
      // open: its end tells them the coordinator is gone.
      const line: SetupLine = { setupData: ctx.setupData ?? null, startAtMs: Date.now() + START_DELAY_MS };
      const data = `${JSON.stringify(line)}\n`;
      for (const i of instances) i.child.stdin?.write(data);
      const overrun = setTimeout(() => {
        const late = alive().map((i) => `${i.index + 1} (segment ${i.segment})`);
        ctx.abort(
          EXIT_GENERIC_TIMEOUT,
          `instance ${late.join(', ')} of ${n} still running ${OVERRUN_MS / 1000} s after the scenarios' end: stopped`,
        );
      }, ctx.maxDurationMs + OVERRUN_MS);
      try {
        await Promise.all(
          instances.map(async (i) => {
            const code = await i.exit;
            // An instance that stopped because the test was stopping (105 after our signal) is not an error.
            if (code === 0 || (stopping && code === EXIT_EXTERNAL_ABORT)) return;
            ctx.abort(
              code,
              `instance ${i.index + 1} of ${n} (segment ${i.segment}) exited with code ${code}`,
            );
          }),
        );
      } finally {
        clearTimeout(overrun);
      }
    },
    async stop() {
      // Instances that never got setup's data (setup failed, the run was aborted first) or are still running after
      // an error here are told to go.
      if (alive().length > 0) stopAll();
      await Promise.all(instances.map((i) => i.exit));
      clearTimeout(killTimer);
      process.off('exit', killAll);
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An instance's side of the conversation with its coordinator (the handedSetup of its run). */
export interface CoordinatorLink {
  /** Says this instance's VUs are ready; resolves setup()'s result and the scenarios' start. */
  ready(): Promise<HandedSetup>;
  /** Resolves when the coordinator closes stdin (it stops the test, or it died). */
  gone: Promise<void>;
}

/**
 * An instance's link to its coordinator: READY_LINE on stdout, then setup's data as one JSON line on stdin. `ready`
 * rejects when stdin closes without it (setup failed, or the test was stopped first).
 */
export function coordinatorLink(
  stdin: NodeJS.ReadableStream & { unref?: () => void },
  stdout: NodeJS.WritableStream,
): CoordinatorLink {
  let resolveData: (data: HandedSetup) => void = () => {};
  let rejectData: (error: Error) => void = () => {};
  const data = new Promise<HandedSetup>((resolve, reject) => {
    resolveData = resolve;
    rejectData = reject;
  });
  // Rejected before anyone asked (the coordinator ended during initialisation): the run's abort reports it.
  data.catch(() => {});
  let resolveGone: () => void = () => {};
  const gone = new Promise<void>((resolve) => {
    resolveGone = resolve;
  });
  const decoder = new StringDecoder('utf8');
  let text = '';
  let received = false;
  stdin.on('data', (chunk: Buffer) => {
    if (received) return;
    text += decoder.write(chunk);
    const end = text.indexOf('\n');
    if (end < 0) return;
    received = true;
    try {
      const { setupData, startAtMs } = JSON.parse(text.slice(0, end)) as SetupLine;
      resolveData({ setupData: setupData ?? undefined, startAtMs });
    } catch (error) {
      rejectData(
        new BenchError(
          `unreadable setup data from the coordinating bench run: ${(error as Error).message}`,
          EXIT_GENERIC_ERROR,
        ),
      );
    }
  });
  const closed = () => {
    if (!received)
      rejectData(
        new BenchError('the coordinating bench run ended before setup() finished', EXIT_EXTERNAL_ABORT),
      );
    resolveGone();
  };
  stdin.on('end', closed);
  stdin.on('close', closed);
  stdin.on('error', closed);
  // The open pipe must not keep a finished instance alive: the run's own handles hold the process until its end.
  stdin.unref?.();
  return {
    ready() {
      stdout.write(`${READY_LINE}\n`);
      return data;
    },
    gone,
  };
}

/** Calls `onLine` for every complete line of a child's output stream, and for the unfinished rest at its end. */
function eachLine(stream: NodeJS.ReadableStream | null, onLine: (line: string) => void): () => void {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  stream?.on('data', (chunk: Buffer) => {
    const lines = (partial + decoder.write(chunk)).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  });
  return () => {
    if (partial) onLine(partial);
    partial = '';
  };
}

function startInstance(
  index: number,
  segment: string,
  args: string[],
  stream: string,
  deliver: (sample: SampleInput) => void,
  registry: () => MetricRegistry | undefined,
  /** Resolves when the instance is killed: its stream is then no longer read. */
  abandoned: Promise<void>,
  opts: { n: number; env: NodeJS.ProcessEnv; stderr: NodeJS.WritableStream },
): Instance {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...args], {
    env: { ...withoutDashboard(opts.env), [INSTANCE_ENV]: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
    // Its own process group: a Ctrl+C reaches the coordinator alone, which stops the instances gracefully.
    detached: true,
  });
  const prefix = `[instance ${index + 1}/${opts.n}] `;
  const log = (line: string) => opts.stderr.write(`${prefix}${line}\n`);
  // vus and vus_max are per instance: the coordinator samples their sums instead (RemoteScenarios.vus).
  let vus = 0;
  let vusMax = 0;
  const onSample = (sample: SampleInput) => {
    if (sample.metric === 'vus') vus = sample.value;
    else if (sample.metric === 'vus_max') vusMax = sample.value;
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
      if (!warned) log((error as Error).message);
      warned = true;
    }
  };
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  // Anything else an instance prints on stdout goes with its log lines.
  const flushOut = eachLine(child.stdout, (line) => (line === READY_LINE ? markReady() : log(line)));
  const flushErr = eachLine(child.stderr, log);
  child.stdin?.on('error', () => {
    // An instance that already exited closed its stdin: nothing to hand it.
  });
  const exited = new Promise<number>((resolve) => {
    child.on('error', (error) => {
      log(`could not start: ${error.message}`);
      resolve(1);
    });
    child.on('close', (code) => {
      flushOut();
      flushErr();
      vus = 0;
      resolve(code ?? 1);
    });
  });
  const samples = followFile(stream, onLine, exited, abandoned);
  return {
    index,
    segment,
    child,
    get vus() {
      return vus;
    },
    get vusMax() {
      return vusMax;
    },
    ready: Promise.race([
      ready,
      exited.then((code) => {
        throw new BenchError(
          `instance ${index + 1} of ${opts.n} (segment ${segment}) exited with code ${code} before its VUs were ready`,
          code === 0 ? EXIT_GENERIC_ERROR : code,
        );
      }),
    ]),
    exit: exited.then(async (code) => {
      await samples.catch((e: Error) => log(e.message));
      return code;
    }),
  };
}

/** The coordinator alone draws the web dashboard (from every instance's samples): its variables stay here. */
function withoutDashboard(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const name of DASHBOARD_VARIABLES) delete out[name];
  return out;
}
