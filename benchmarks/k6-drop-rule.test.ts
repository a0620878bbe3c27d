import { describe, expect, it } from 'vitest';
import { type Hit, parseVegetaJson, replayUnderK6Rule } from './k6-drop-rule';

/** Hits at `rate`/s from epoch ms 1000, each `latencyMs` long, sent `lateBy(seq)` ms after their due time. */
function hits(n: number, rate: number, latencyMs: number, lateBy: (seq: number) => number = () => 0): Hit[] {
  return Array.from({ length: n }, (_, seq) => ({
    seq,
    startMs: 1000 + (seq * 1000) / rate + lateBy(seq),
    latencyMs,
  }));
}

describe('replayUnderK6Rule', () => {
  it('drops nothing when every hit starts on time and ends before the pool runs out', () => {
    const r = replayUnderK6Rule(hits(4000, 2000, 0.3), 2000, 20);
    expect(r.dropped).toBe(0);
    expect(r.lagMax).toBeCloseTo(0, 9);
  });

  it('drops the starts due while a stall holds every VU, at 2000/s with 20 VUs', () => {
    // Hits 100..129 are due in [50, 65) ms; the process stalls until 65 ms and sends them all then, 0.3 ms each.
    // The 20 VUs are busy with hits 100..119 until 65.3 ms, so the 11 hits due from 60 to 65 ms find no VU.
    const stalled = hits(4000, 2000, 0.3, (seq) => (seq >= 100 && seq < 130 ? 65 - seq * 0.5 : 0));
    const r = replayUnderK6Rule(stalled, 2000, 20);
    expect(r.dropped).toBe(11);
    expect(r.lagMax).toBeCloseTo(15, 9);
  });

  it('keeps a late start when a VU was free at its due time (late, not dropped)', () => {
    const late = hits(100, 100, 1, (seq) => (seq === 50 ? 8 : 0));
    expect(replayUnderK6Rule(late, 100, 1).dropped).toBe(0);
  });

  it('takes the origin from the punctual hits, not from one early hit', () => {
    // One hit 1 ms early (jitter): the others keep a lag of 0.
    const early = replayUnderK6Rule(
      hits(1000, 10, 1, (seq) => (seq === 7 ? -1 : 0)),
      10,
      1,
    );
    expect(early.lagP50).toBeCloseTo(0, 9);
    // Half the hits 2 ms late: they count as late.
    const late = replayUnderK6Rule(
      hits(1000, 10, 1, (seq) => (seq < 500 ? 0 : 2)),
      10,
      1,
    );
    expect(late.lagP99).toBeCloseTo(2, 9);
    expect(late.lagMax).toBeCloseTo(2, 9);
  });

  it('reads hits in any order (vegeta writes them as they complete)', () => {
    const stalled = hits(200, 2000, 0.3, (seq) => (seq >= 100 && seq < 130 ? 65 - seq * 0.5 : 0));
    expect(replayUnderK6Rule([...stalled].reverse(), 2000, 20).dropped).toBe(11);
  });
});

describe('parseVegetaJson', () => {
  it('keeps the nanoseconds of the timestamp and turns latency into ms', () => {
    const text = [
      '{"attack":"","seq":2,"code":200,"timestamp":"2026-12-03T17:56:15.707102848Z","latency":743890,"error":""}',
      '{"attack":"","seq":3,"code":200,"timestamp":"2026-12-03T17:56:15Z","latency":1000000,"error":""}',
      '',
    ].join('\n');
    const [a, b] = parseVegetaJson(text);
    expect(a.seq).toBe(2);
    expect(a.startMs - Date.parse('2026-12-03T17:56:15Z')).toBeCloseTo(707.1028, 3);
    expect(a.latencyMs).toBeCloseTo(0.74389, 9);
    expect(b.startMs).toBe(Date.parse('2026-12-03T17:56:15Z'));
  });

  it('names the result whose timestamp it cannot read', () => {
    expect(() => parseVegetaJson('{"seq":7,"timestamp":"yesterday","latency":1}')).toThrow(
      /vegeta result 7: unreadable timestamp "yesterday"/,
    );
  });
});
