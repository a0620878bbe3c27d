import { describe, expect, it } from 'vitest';
import { advance, initialState, slotAt } from '../phase-machine';
import { BANDS, bandGates, bandPlan, bandSchedule, batchRowsByBand, probeBand, writerAction } from './bands';

const KiB = 1024;
const LIMITS = { tailLimitBytes: 64 * KiB, backlogLimitBytes: 256 * KiB };

describe('the bands', () => {
  it('gate the backlog below the tail, between the tail and the limit, and above the limit', () => {
    expect(bandGates(LIMITS).map((g) => [g.min / KiB, g.max / KiB, g.aim / KiB])).toEqual([
      [0, Number.POSITIVE_INFINITY, 0],
      [16, 48, 32],
      [128, 192, 160],
      [268.8, Number.POSITIVE_INFINITY, 320],
    ]);
  });

  it('open one after another as the metadata series moves through their gates', () => {
    const plan = bandPlan(LIMITS);
    const s = bandSchedule({ bandWarmupS: 1, bandDurationS: 5, phaseTimeoutS: 30 });
    // Idle from t0 = 0 (6 s), then readings once a second: the backlog rises through each gate.
    const series: [number, number][] = [
      [7000, 4 * KiB],
      [8000, 20 * KiB],
      [16000, 100 * KiB],
      [17000, 150 * KiB],
      [25000, 200 * KiB],
      [26000, 280 * KiB],
    ];
    let state = initialState(0);
    const opened: string[] = [];
    for (const [time, bytes] of series) {
      state = advance(plan, state, time, { time, unindexedBytes: bytes }, s);
      const slot = slotAt(plan, state, time + 1000, s);
      if (slot.phase !== null && slot.stage !== 'waiting' && !opened.includes(BANDS[slot.phase]))
        opened.push(BANDS[slot.phase]);
    }
    expect(opened).toEqual(['below_tail', 'above_tail', 'above_limit']);
    expect(state.starts.map((x) => x?.hi)).toEqual([0, 9000, 18000]);
  });

  it('give the writers batches of at most a quarter of a gate', () => {
    const c = { ...LIMITS, dims: 32, writeBatchRows: 200 } as Parameters<typeof batchRowsByBand>[0];
    // 32-d rows are 136 bytes: below the tail 32 KiB / 4 / 136 = 60 rows; above it 120; above the limit 51.2 KiB
    // between the gate and the aim: 96.
    expect(batchRowsByBand(c)).toEqual([200, 60, 120, 96]);
  });

  it('write while a batch fits under the aim, with disable_backpressure only above the limit', () => {
    const gates = bandGates(LIMITS);
    expect(writerAction(0, 0, KiB, gates)).toEqual({ kind: 'wait' });
    expect(writerAction(1, 20 * KiB, 8 * KiB, gates)).toEqual({ kind: 'write', disableBackpressure: false });
    expect(writerAction(1, 30 * KiB, 8 * KiB, gates)).toEqual({ kind: 'wait' });
    expect(writerAction(3, 250 * KiB, 8 * KiB, gates)).toEqual({ kind: 'write', disableBackpressure: true });
    expect(writerAction(null, 0, KiB, gates)).toEqual({ kind: 'stop' });
  });

  it('count a probe in the idle window by time, elsewhere by the backlog read after its ack', () => {
    const c = { ...LIMITS, bandWarmupS: 1, bandDurationS: 5 };
    expect(probeBand(c, 0, 2000, 50 * KiB)).toBe('idle');
    expect(probeBand(c, 0, 500, 0)).toBe('transition');
    expect(probeBand(c, 0, 9000, 30 * KiB)).toBe('below_tail');
    expect(probeBand(c, 0, 9000, 100 * KiB)).toBe('transition');
    expect(probeBand(c, 0, 9000, 150 * KiB)).toBe('above_tail');
    expect(probeBand(c, 0, 9000, 300 * KiB)).toBe('above_limit');
  });
});
