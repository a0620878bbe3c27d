import { describe, expect, it } from 'vitest';
import { parseStalls, splitSeconds, Timeline } from './drop-timeline';

const t0 = Date.parse('2026-12-03T16:00:00.000Z');
const at = (ms: number) => new Date(t0 + ms).toISOString();
const point = (metric: string, ms: number, value: number) => ({
  type: 'Point',
  metric,
  data: { time: at(ms), value },
});

describe('Timeline', () => {
  it('counts drops, requests and requests over the bound in the second they fell, leaving out the rest', () => {
    const t = new Timeline(t0, 2, 2.5);
    t.add(point('http_req_duration', 10, 0.2));
    t.add(point('http_req_duration', 999, 2.6));
    t.add(point('http_req_duration', 1000, 2.5));
    t.add(point('dropped_iterations', 1500, 1));
    t.add(point('dropped_iterations', 1600, 1));
    t.add(point('http_req_duration', -1, 9));
    t.add(point('http_req_duration', 2000, 9));
    t.add(point('http_reqs', 100, 1));
    t.add({ type: 'Metric', metric: 'http_req_duration', data: { time: at(100), value: 9 } });
    expect(t.seconds.map(({ drops, requests, slow }) => ({ drops, requests, slow }))).toEqual([
      { drops: 0, requests: 2, slow: 1 },
      { drops: 2, requests: 1, slow: 0 },
    ]);
  });

  it("takes each second's steal from the readings around it, NaN where none cover it", () => {
    const t = new Timeline(t0, 3, 1);
    t.setSteal([
      { at: t0 - 100, ticks: { total: 0, steal: 0 } },
      { at: t0 + 1000, ticks: { total: 200, steal: 10 } },
      { at: t0 + 2050, ticks: { total: 400, steal: 10 } },
    ]);
    expect(t.seconds.map((s) => s.steal)).toEqual([0.05, 0, Number.NaN]);
    expect(t.seconds.map((s) => s.stallMs)).toEqual([0, 0, 0]);
  });
});

describe('stalls', () => {
  it('parses the probe lines and leaves out anything else', () => {
    expect(
      parseStalls('stall-probe: running\n1796314956045 1 8.508\n1796314956047 0 11.083\n\n12 x 3\n'),
    ).toEqual([
      { at: 1796314956045, lateMs: 8.508 },
      { at: 1796314956047, lateMs: 11.083 },
    ]);
  });

  it('gives each second its longest stall, counting those that ended up to 50 ms before it', () => {
    const t = new Timeline(t0, 3, 1);
    t.setStalls([
      { at: t0 + 100, lateMs: 3 },
      { at: t0 + 300, lateMs: 9 },
      { at: t0 + 960, lateMs: 12 },
      { at: t0 + 2100, lateMs: 4 },
    ]);
    expect(t.seconds.map((s) => s.stallMs)).toEqual([12, 12, 4]);
  });
});

describe('splitSeconds', () => {
  it('puts the first second apart, then the seconds with steal or a stall at the bounds, then the rest', () => {
    const s = (drops: number, slow: number, steal: number, stallMs: number) => ({
      drops,
      requests: 100,
      slow,
      steal,
      stallMs,
    });
    const seconds = [
      s(20, 50, 0, 0),
      s(0, 1, 0, 3),
      s(5, 9, 0.1, 0),
      s(1, 2, 0.019, 7.9),
      s(7, 7, Number.NaN, 8),
      s(3, 4, 0.02, 0),
    ];
    expect(splitSeconds(seconds, { steal: 0.02, stallMs: 8 })).toEqual({
      start: { seconds: 1, drops: 20, requests: 100, slow: 50 },
      stalled: { seconds: 3, drops: 15, requests: 300, slow: 20 },
      rest: { seconds: 2, drops: 1, requests: 200, slow: 3 },
    });
  });
});
