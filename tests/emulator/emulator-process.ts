// `bench emulator` as a child process (dist/bench.js, built by the global setup), for suites that test the real
// process a user runs: it is ready once it prints its base URL; stop() sends SIGTERM and waits for the exit.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BENCH_JS = fileURLToPath(new URL('../../dist/bench.js', import.meta.url));

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
  const proc = spawn(process.execPath, [BENCH_JS, 'emulator', '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const err: string[] = [];
  proc.stdout?.on('data', (d) => out.push(String(d)));
  proc.stderr?.on('data', (d) => err.push(String(d)));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + timeoutMs;
  while (!out.join('').includes('\n')) {
    if (proc.exitCode !== null) throw new Error(`emulator exited ${proc.exitCode}: ${err.join('')}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`emulator printed no base URL within ${timeoutMs} ms: ${err.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { proc, url: out.join('').trim(), stderr: () => err.join(''), stop };
}
