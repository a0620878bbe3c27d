import { describe, expect, it } from 'vitest';
import { MetadataPoller } from '../metadata-poll';
import { PhaseTracker } from './phase-tracker';
import { TICK_MS } from './phases';

const MiB = 2 ** 20;
const t0 = 1_700_000_000_000;
const sched = { warmupMs: 1000, durationMs: 5000, phaseTimeoutMs: 20000 };
const gates = { ltStartBytes: 1 * MiB, ltCapBytes: 4 * MiB, gtStartBytes: 8 * MiB };

function setup(backlog: () => number) {
  let now = t0;
  let fetches = 0;
  const poller = new MetadataPoller(
    () => {
      fetches++;
      return { status: 200, body: { index: { status: 'updating' as const, unindexed_bytes: backlog() } } };
    },
    TICK_MS,
    () => now,
  );
  const tracker = new PhaseTracker(t0, sched, gates, poller);
  return { tracker, at: (ms: number) => (now = t0 + ms), fetches: () => fetches };
}

describe('PhaseTracker', () => {
  it('lets query VUs skip metadata inside a cell and poll while a gate is awaited', () => {
    const s = setup(() => 2 * MiB);
    s.at(3000);
    expect(s.tracker.update(t0 + 3000, false)).toMatchObject({
      slot: { phase: 'idle', stage: 'measuring' },
      fresh: false,
    });
    expect(s.fetches()).toBe(0);
    s.at(12_200);
    const waiting = s.tracker.update(t0 + 12_200, false);
    expect(s.fetches()).toBe(1);
    // The first reading of the wait already passes: the start is known as the range [+13 s, +13 s].
    expect(waiting.slot).toMatchObject({ phase: 'indexing_below_limit', stage: 'waiting' });
    s.at(13_000);
    expect(s.tracker.update(t0 + 13_000, false).slot).toMatchObject({
      phase: 'indexing_below_limit',
      stage: 'warmup',
    });
  });

  it('polls every second for writers, whatever the stage', () => {
    const s = setup(() => 0);
    for (const ms of [0, 500, 1000, 2000]) {
      s.at(ms);
      s.tracker.update(t0 + ms, true);
    }
    expect(s.fetches()).toBe(3);
  });
});
