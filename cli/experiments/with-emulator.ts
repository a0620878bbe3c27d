// Runs a k6 script against a fresh local emulator: starts `bench emulator --port 0 <flags>`, reads the base URL it
// prints, runs `bench run <args> -e TURBOPUFFER_BASE_URL=<url>`, and always stops the emulator (also on failure
// and Ctrl+C). Exits with the runner's exit code. Used by both experiments' launchers and smoke tests.
//
//   tsx cli/experiments/with-emulator.ts [emulator flags...] -- <script> [bench run flags...]
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { SERVICE_VARIABLES } from './target-rule';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BENCH = `${root}bin/bench.js`;
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface WithEmulatorOptions {
  /** Flags for `bench emulator` (after `--port 0`). */
  emulatorArgs: string[];
  /** The script and flags for `bench run`. */
  runArgs: string[];
  /** Extra environment for the runner (the caller's environment minus turbopuffer credentials is the base). */
  env?: Record<string, string>;
  /** The caller's environment (process.env by default); its real-service variables never reach the run. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Where the runner's output goes: inherited by default. */
  stdio?: 'inherit' | 'pipe';
  /** Receives the runner's stdout and stderr when stdio is 'pipe'. */
  onOutput?: (chunk: string) => void;
  /** Receives the runner's process once started (a test that may time out kills it in its afterAll). */
  onSpawn?: (runner: ChildProcess) => void;
}

/** Starts the emulator and resolves its base URL (the first stdout line that is a URL). */
export function startEmulator(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
  // Node flags for the emulator process, e.g. "--cpu-prof --cpu-prof-dir=prof" to profile a benchmark's emulator.
  const nodeArgs = (process.env.BENCH_EMULATOR_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, BENCH, 'emulator', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Own process group: a terminal's Ctrl+C reaches only this launcher, which stops the emulator last.
    detached: true,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`bench emulator printed no base URL within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const url = line.trim();
      if (!/^https?:\/\/\S+$/.test(url)) return;
      clearTimeout(timer);
      // Keep draining stdout so the emulator never blocks on a full pipe.
      lines.removeAllListeners('line');
      resolve({ child, baseUrl: url });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`bench emulator exited before listening (code ${code}, signal ${signal})`));
    });
  });
}

/** SIGTERM, then SIGKILL if it is still running after STOP_TIMEOUT_MS. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * SIGKILLs a process that is still running and every process below it (found before any is killed: `bench run
 * --instances` puts its instances in their own process groups, and killed parents leave orphans to init).
 */
export function killProcessTree(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const children = new Map<number, number[]>();
  for (const line of execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' }).split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!pid) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const tree = [child.pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  for (const pid of tree) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
}

function runnerVersion(): string {
  try {
    return execFileSync(process.execPath, [BENCH, 'version'], { encoding: 'utf8', timeout: 10_000 })
      .trim()
      .split('\n')[0];
  } catch {
    return 'unknown';
  }
}

export async function runWithEmulator(o: WithEmulatorOptions): Promise<number> {
  const { child: emulator, baseUrl } = await startEmulator(o.emulatorArgs);
  try {
    // Never hand real-service credentials to a run that targets the emulator.
    const inherited = { ...(o.baseEnv ?? process.env) };
    for (const name of SERVICE_VARIABLES) delete inherited[name];
    return await runBench({
      ...o,
      baseEnv: inherited,
      extraFlags: ['-e', `TURBOPUFFER_BASE_URL=${baseUrl}`],
    });
  } finally {
    await stopProcess(emulator);
  }
}

export interface RunBenchOptions extends Omit<WithEmulatorOptions, 'emulatorArgs' | 'baseEnv'> {
  /** The runner's environment before `env` (real-service runs pass the caller's, credentials included). */
  baseEnv: NodeJS.ProcessEnv;
  /** Flags appended after runArgs (e.g. the emulator's base URL). */
  extraFlags?: string[];
}

/**
 * `bench run <runArgs> <extraFlags>` with the run's versions passed as -e (the script records them), signals
 * forwarded once; resolves the runner's exit code.
 */
export async function runBench(o: RunBenchOptions): Promise<number> {
  let runner: ChildProcess | undefined;
  const forward = (signal: NodeJS.Signals) => runner?.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    const [script, ...flags] = o.runArgs;
    const args = [
      BENCH,
      'run',
      script,
      ...flags,
      ...(o.extraFlags ?? []),
      '-e',
      `BENCH_RUNNER_VERSION=${runnerVersion()}`,
      '-e',
      `BENCH_NODE_VERSION=${process.version}`,
    ];
    runner = spawn(process.execPath, args, {
      cwd: root,
      env: { ...o.baseEnv, ...o.env },
      stdio: o.stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      // Own process group, so Ctrl+C arrives once (forwarded below): k6 treats a second SIGINT as "exit now",
      // which would skip teardown and handleSummary.
      detached: true,
    });
    o.onSpawn?.(runner);
    if (o.stdio === 'pipe') {
      runner.stdout?.on('data', (d: Buffer) => o.onOutput?.(d.toString()));
      runner.stderr?.on('data', (d: Buffer) => o.onOutput?.(d.toString()));
    }
    const child = runner;
    return await new Promise<number>((resolve) => {
      child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 105 : 1)));
    });
  } finally {
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
  }
}

function splitArgs(argv: string[]): { emulatorArgs: string[]; runArgs: string[] } {
  const sep = argv.indexOf('--');
  if (sep < 0 || sep === argv.length - 1) {
    process.stderr.write(
      'usage: tsx cli/experiments/with-emulator.ts [emulator flags...] -- <script> [bench run flags...]\n',
    );
    process.exit(2);
  }
  return { emulatorArgs: argv.slice(0, sep), runArgs: argv.slice(sep + 1) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = await runWithEmulator(splitArgs(process.argv.slice(2)));
  } catch (error) {
    process.stderr.write(`with-emulator: ${(error as Error).message}\n`);
    process.exitCode = 2;
  }
}
