// The indexer's pacing and handover: unpaced drains in one go, paced ones move in steps at the configured rate,
// recovery fast-forwards, and a failed batch is retried.
import { describe, expect, it } from 'vitest';
import { type Indexable, Indexer } from './indexer';

class FakeLog implements Indexable {
  cursorPos = 0;
  deleted = false;
  readonly calls: number[] = [];
  failures = 0;
  constructor(public headPos: number) {}
  async indexTo(pos: number): Promise<void> {
    if (this.failures > 0) {
      this.failures--;
      throw new Error('engine hiccup');
    }
    this.calls.push(pos);
    this.cursorPos = Math.max(this.cursorPos, pos);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('indexer', () => {
  it('unpaced: one batch to the head, then idle', async () => {
    const log = new FakeLog(10_000);
    const indexer = new Indexer(log, { bytesPerSecond: Number.POSITIVE_INFINITY });
    indexer.kick();
    await indexer.idle();
    expect(log.calls).toEqual([10_000]);
    log.headPos = 12_000;
    indexer.kick();
    await indexer.idle();
    expect(log.calls).toEqual([10_000, 12_000]);
  });

  it('paced: 2,000 bytes/s moves a 1,000-byte backlog in several batches over about half a second', async () => {
    const log = new FakeLog(1000);
    const indexer = new Indexer(log, { bytesPerSecond: 2000, intervalMs: 50 });
    const started = performance.now();
    indexer.kick();
    await sleep(150);
    expect(log.cursorPos).toBeGreaterThan(0);
    expect(log.cursorPos).toBeLessThan(1000);
    await indexer.idle();
    expect(log.cursorPos).toBe(1000);
    expect(log.calls.length).toBeGreaterThan(3);
    expect(log.calls).toEqual([...log.calls].sort((a, b) => a - b));
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });

  it('indexes the burst as it arrives, unpaced, then keeps the pace', async () => {
    const log = new FakeLog(4000);
    const indexer = new Indexer(log, { bytesPerSecond: 10, intervalMs: 20, burstBytes: 6000 });
    indexer.kick();
    await sleep(50);
    // The first write (4,000 bytes) is all inside the burst: indexed at once.
    expect(log.calls).toEqual([4000]);
    log.headPos = 10_000;
    indexer.kick();
    await sleep(100);
    // The second is indexed up to the burst's end at once, the rest at 10 bytes/s.
    expect(log.calls.slice(0, 2)).toEqual([4000, 6000]);
    expect(log.cursorPos).toBeLessThan(6010);
    await indexer.stop();
  });

  it('fast-forwards to the position indexed before a restart, then keeps the pace', async () => {
    const log = new FakeLog(10_000);
    const indexer = new Indexer(log, { bytesPerSecond: 10, intervalMs: 20 });
    indexer.fastForward(6000);
    await sleep(100);
    expect(log.calls[0]).toBe(6000);
    expect(log.cursorPos).toBeLessThan(6010);
    await indexer.stop();
  });

  it('reports a failed batch and retries it', async () => {
    const log = new FakeLog(500);
    log.failures = 1;
    const errors: unknown[] = [];
    const indexer = new Indexer(log, {
      bytesPerSecond: Number.POSITIVE_INFINITY,
      onError: (e) => errors.push(e),
    });
    indexer.kick();
    await indexer.idle();
    expect(errors).toHaveLength(1);
    expect(log.cursorPos).toBe(500);
  });
});
