// Test harness for running fixture scripts through the real CLI (dist/bench.js) against a loopback HTTP server.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'tests/runner/fixtures');

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** With `{ peakRss: true }`: the process's peak resident set size (VmHWM), sampled from /proc while it ran. */
  peakRssBytes?: number;
}

/**
 * Runs `node dist/bench.js <args>` with a hard time limit (the run is bounded; the limit only guards the test); with
 * `sigintAfterMs`, sends SIGINT that long after the start, as a user pressing Ctrl-C; with `sigintOn`, once when the
 * run's stderr first matches it (a moment the script announces, whatever the machine's speed).
 */
export function bench(
  args: string[],
  env: Record<string, string> = {},
  limitMs = 45_000,
  options: { peakRss?: boolean; sigintAfterMs?: number; sigintOn?: RegExp } = {},
): Promise<RunResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/bench.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    let signalled = false;
    child.stderr.on('data', (d) => {
      stderr += d;
      if (options.sigintOn && !signalled && options.sigintOn.test(stderr)) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    let peakKb = 0;
    const sampler = options.peakRss
      ? setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) peakKb = Math.max(peakKb, Number(m[1]));
          } catch {
            // Exited: the last sample stands (VmHWM only grows).
          }
        }, 20)
      : undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    const interrupt =
      options.sigintAfterMs === undefined
        ? undefined
        : setTimeout(() => child.kill('SIGINT'), options.sigintAfterMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(interrupt);
      clearInterval(sampler);
      resolve({
        code,
        stdout,
        stderr,
        ms: Date.now() - started,
        ...(options.peakRss ? { peakRssBytes: peakKb * 1024 } : {}),
      });
    });
  });
}

export function fixture(name: string): string {
  return join(FIXTURES, name);
}

/** A scratch directory for output files, removed by the returned cleanup. */
export function scratch(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  bodyBytes: number;
  /** SHA-1 (hex) of the body as received. */
  bodySha1: string;
}

/** A loopback server that answers every request 200 "ok" (or per `respond`) and records what it got. */
export async function startServer(
  respond: (req: IncomingMessage) => { status: number; body: string } = () => ({ status: 200, body: 'ok' }),
): Promise<{ url: string; requests: Recorded[]; close(): Promise<void> }> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    let bytes = 0;
    const hash = createHash('sha1');
    req.on('data', (c: Buffer) => {
      bytes += c.length;
      hash.update(c);
    });
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bodyBytes: bytes,
        bodySha1: hash.digest('hex'),
      });
      const r = respond(req);
      res.writeHead(r.status, { 'content-type': 'text/plain' });
      res.end(r.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file: a loopback server started before its tests and closed after them, plus a scratch directory.
 * Read `server` inside tests (it is set once beforeAll ran).
 */
export function fileFixtures(): {
  readonly server: Awaited<ReturnType<typeof startServer>>;
  tmp: ReturnType<typeof scratch>;
} {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  const tmp = scratch();
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });
  return {
    get server() {
      if (!server) throw new Error('fileFixtures: the server starts in beforeAll; read it inside a test');
      return server;
    },
    tmp,
  };
}

export interface JsonLine {
  type: 'Metric' | 'Point';
  metric: string;
  data: {
    name?: string;
    type?: string;
    thresholds?: unknown[];
    submetrics?: unknown;
    time?: string;
    value?: number;
    tags?: Record<string, string>;
    metadata?: Record<string, string>;
  };
}

export function readNdjson(path: string): JsonLine[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as JsonLine);
}

export function points(lines: JsonLine[], metric: string): JsonLine[] {
  return lines.filter((l) => l.type === 'Point' && l.metric === metric);
}
