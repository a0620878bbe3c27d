// The command prefix that runs a program in a network namespace of its own with only loopback up (unshare -n): the
// scripts that run code or tools written by others (try-k6-scripts, try-tpuf-benchmark) send nothing off the machine.
// `ip link set lo up` inside, since a fresh namespace has loopback down and the programs talk over 127.0.0.1. And how
// both run such a program: bounded in time, killed whole.
import { type ChildProcess, spawn } from 'node:child_process';

export const LOOPBACK_ONLY: readonly string[] = [
  'unshare',
  '--net',
  '--map-root-user',
  '--',
  'sh',
  '-c',
  'ip link set lo up && exec "$@"',
  'sh',
];

/** How a bounded run ended: `exitCode` null when the time limit killed it. */
export interface BoundedRun {
  exitCode: number | null;
  seconds: number;
  /** Its stdout and stderr, interleaved as they came. */
  output: string;
}

/**
 * Runs `argv` in a process group of its own, so the time limit kills what it started too (nsenter's tool, k6/browser's
 * Chromium), and collects its output. `onSpawn` gets the child, for callers that must kill it on their own abort.
 */
export function runBounded(
  argv: readonly string[],
  options: {
    cwd: string;
    timeoutMs: number;
    env?: NodeJS.ProcessEnv;
    onSpawn?: (child: ChildProcess) => void;
  },
): Promise<BoundedRun> {
  const started = performance.now();
  return new Promise((done) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: options.env ?? process.env,
    });
    options.onSpawn?.(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }, options.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ exitCode: killed ? null : code, seconds: (performance.now() - started) / 1000, output });
    });
  });
}
