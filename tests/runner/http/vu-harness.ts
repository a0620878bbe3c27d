// Test-side handle on a fake VU thread (fake-vu-thread.ts) connected to a real HttpIoPool, and the set-up most
// k6/http test files share: a loopback server, a pool and VU 1 for the whole file.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { defaultHttpOptions } from '../../../runner/http/default-options';
import { HttpIoPool } from '../../../runner/http/io-pool';
import { type HttpModuleOptions, SIGNAL_INTERRUPT, SIGNAL_WAKE } from '../../../runner/modules/module-host';
import type { FakeVuCommand, FakeVuData, FakeVuResult } from './fake-vu-thread';
import { type LoopbackServer, startLoopbackServer } from './loopback-server';

export const DIST_IO_WORKER = new URL('../../../dist/http-io.worker.js', import.meta.url);

/** The runner's k6/http defaults with a fixed User-Agent the tests can assert. */
function httpOptions(over: Partial<HttpModuleOptions> = {}): HttpModuleOptions {
  return { ...defaultHttpOptions(), userAgent: 'bench-test/1', ...over };
}

// Worker threads cannot run TypeScript directly: the fake VU thread is bundled once per test process, inside the
// repo so its bare imports (undici, tough-cookie) resolve from node_modules. The file is named by its content and
// renamed into place, so parallel test processes share it and runs never pile up copies.
let bundled: Promise<URL> | undefined;
function fakeVuBundle(): Promise<URL> {
  bundled ??= (async () => {
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(new URL('./fake-vu-thread.ts', import.meta.url))],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
      write: false,
      outfile: 'fake-vu.mjs',
    });
    const code = result.outputFiles[0].contents;
    const dir = fileURLToPath(new URL('../../../node_modules/.cache/bench-tests/', import.meta.url));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `fake-vu-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
    if (!existsSync(file)) {
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, code);
      renameSync(temporary, file);
    }
    return pathToFileURL(file);
  })();
  return bundled;
}

export class FakeVu {
  private nextId = 1;
  private readonly pending = new Map<number, (r: FakeVuResult) => void>();

  private constructor(
    private readonly worker: Worker,
    readonly signal: Int32Array,
  ) {
    worker.on('message', (m: FakeVuResult) => {
      if (m.t !== 'result') return;
      this.pending.get(m.id)?.(m);
      this.pending.delete(m.id);
    });
  }

  static async start(pool: HttpIoPool, vuId: number, over: Partial<HttpModuleOptions> = {}): Promise<FakeVu> {
    const port = pool.connectVu(vuId);
    const signal = new Int32Array(new SharedArrayBuffer(8));
    const data: FakeVuData = {
      vuId,
      port,
      signal,
      httpOptions: httpOptions(over),
      tags: { scenario: 'default', group: '' },
    };
    const worker = new Worker(await fakeVuBundle(), { workerData: data, transferList: [port] });
    await new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    return new FakeVu(worker, signal);
  }

  /** Runs `code` (a function body with `http` in scope) in the VU thread. */
  run(code: string, async = false): Promise<FakeVuResult> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.send({ t: 'run', id, code, async });
    });
  }

  send(command: FakeVuCommand): void {
    this.worker.postMessage(command);
  }

  interrupt(): void {
    Atomics.store(this.signal, SIGNAL_INTERRUPT, 1);
    Atomics.notify(this.signal, SIGNAL_WAKE);
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

export interface LoopbackVu {
  readonly server: LoopbackServer;
  /** For the file's own further VUs (other ids, other options). */
  readonly pool: HttpIoPool;
  readonly vu: FakeVu;
}

/**
 * Starts a loopback server, an I/O pool on the built worker and VU 1 on it before the calling file's tests, and
 * closes them after. The fields can only be read inside tests: they exist once beforeAll has run.
 */
export function useLoopbackVu(): LoopbackVu {
  let server: LoopbackServer | undefined;
  let pool: HttpIoPool | undefined;
  let vu: FakeVu | undefined;
  beforeAll(async () => {
    server = await startLoopbackServer();
    pool = await HttpIoPool.start({ workerFile: DIST_IO_WORKER });
    vu = await FakeVu.start(pool, 1);
  });
  afterAll(async () => {
    await vu?.close();
    await pool?.close();
    await server?.close();
  });
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`useLoopbackVu: ${name} is read before beforeAll started it`);
    return value;
  };
  return {
    get server() {
      return started(server, 'server');
    },
    get pool() {
      return started(pool, 'pool');
    },
    get vu() {
      return started(vu, 'vu');
    },
  };
}
