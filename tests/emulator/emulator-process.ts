// `bench emulator` as a child process (dist/bench.js, built by the global setup), for suites that test the real
// process a user runs: it is ready once it prints its base URL; stop() sends SIGTERM and waits for the exit.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BENCH_JS = fileURLToPath(new URL('../../dist/bench.js', import.meta.url));

interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A `bench emulator` process just spawned: what it has printed so far, and its exit. */
export interface LaunchedEmulator {
  proc: ChildProcess;
  out: string[];
  err: string[];
  exited: Promise<ProcessExit>;
}

/** Spawns `bench emulator` with exactly `args` (no --port added: flag errors are tested through this too). */
export function launchEmulatorProcess(args: string[]): LaunchedEmulator {
  const proc = spawn(process.execPath, [BENCH_JS, 'emulator', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const err: string[] = [];
  proc.stdout?.on('data', (d) => out.push(String(d)));
  proc.stderr?.on('data', (d) => err.push(String(d)));
  const exited = new Promise<ProcessExit>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { proc, out, err, exited };
}

/** A launched emulator that has printed its base URL. */
export interface ListeningEmulator extends LaunchedEmulator {
  url: string;
  stderr(): string;
}

/**
 * Waits for the base URL line; throws with the process's stderr (and `context`, e.g. a seed to rerun with) when it
 * exits first or prints none within `timeoutMs`. It leaves the process running either way.
 */
export async function listening(
  launched: LaunchedEmulator,
  timeoutMs = 20_000,
  context = '',
): Promise<ListeningEmulator> {
  const { proc, out, err } = launched;
  const deadline = Date.now() + timeoutMs;
  while (!out.join('').includes('\n')) {
    if (proc.exitCode !== null)
      throw new Error(`emulator exited ${proc.exitCode}${context}: ${err.join('')}`);
    if (Date.now() > deadline)
      throw new Error(`emulator printed no base URL within ${timeoutMs} ms${context}: ${err.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ...launched, url: out.join('').trim(), stderr: () => err.join('') };
}

export interface EmulatorProcess {
  proc: ChildProcess;
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startEmulatorProcess(
  flags: string[] = [],
  timeoutMs = 20_000,
): Promise<EmulatorProcess> {
  const launched = launchEmulatorProcess(['--port', '0', ...flags]);
  const { proc, err, exited } = launched;
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  try {
    const { url } = await listening(launched, timeoutMs);
    return { proc, url, stderr: () => err.join(''), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
