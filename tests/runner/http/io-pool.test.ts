// HttpIoPool.whenBooted: a run starts its scenarios only once every I/O worker started so far has booted.
import { describe, expect, it } from 'vitest';
import { HttpIoPool } from '../../../runner/http/io-pool';
import { DIST_IO_WORKER } from './vu-harness';

const ON_CUE = new URL('./fixtures/io-worker-ready-on-cue.mjs', import.meta.url);

/** The pool's first worker, reached through its private list to cue the fixture on its control channel. */
function workerOf(pool: HttpIoPool): { postMessage(m: unknown): void } {
  return (pool as unknown as { workers: { worker: { postMessage(m: unknown): void } }[] }).workers[0].worker;
}

/** Whether `p` has settled after the turns already queued have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('HttpIoPool.whenBooted', () => {
  it('resolves at once when no worker was started (VUs that share host threads and no setup())', async () => {
    const pool = HttpIoPool.lazy({ workerFile: ON_CUE });
    expect(await settled(pool.whenBooted())).toBe(true);
    await pool.close();
  });

  it('waits for a started worker to say ready, and stays resolved after', async () => {
    const pool = HttpIoPool.lazy({ workerFile: ON_CUE });
    const port = pool.connectVu(0);
    const booted = pool.whenBooted();
    // The fixture's own start takes a few turns; it has not been cued, so it is not ready whatever they take.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await settled(booted)).toBe(false);
    workerOf(pool).postMessage({ t: 'cue' });
    await booted;
    expect(await settled(pool.whenBooted())).toBe(true);
    port.close();
    await pool.close();
  });

  it('startFor boots the worker a VU will use before its port exists', async () => {
    const pool = HttpIoPool.lazy({ workerFile: ON_CUE });
    pool.startFor(0);
    const booted = pool.whenBooted();
    expect(await settled(booted)).toBe(false);
    workerOf(pool).postMessage({ t: 'cue' });
    await booted;
    await pool.close();
  });

  it('rejects, naming the exit code, when a worker exits before it is ready', async () => {
    const pool = HttpIoPool.lazy({ workerFile: ON_CUE });
    pool.connectVu(0);
    workerOf(pool).postMessage({ t: 'die' });
    await expect(pool.whenBooted()).rejects.toThrow('HTTP I/O worker exited with code 3 before it was ready');
  });

  it('the real worker boots and says ready', async () => {
    const pool = HttpIoPool.lazy({ workerFile: DIST_IO_WORKER });
    const port = pool.connectVu(0);
    await expect(pool.whenBooted()).resolves.toBeUndefined();
    port.close();
    await pool.close();
  });
});
