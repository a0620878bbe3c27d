import { describe, expect, it } from 'vitest';
import { splitBySteal, Timeline } from './drop-timeline';

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
  });
});

describe('splitBySteal', () => {
  it('sums the seconds below the threshold and the others, skipping seconds without a steal reading', () => {
    const s = (drops: number, slow: number, steal: number) => ({ drops, requests: 100, slow, steal });
    expect(
      splitBySteal([s(0, 1, 0), s(5, 9, 0.1), s(1, 2, 0.019), s(7, 7, Number.NaN), s(3, 4, 0.02)], 0.02),
    ).toEqual({
      quiet: { seconds: 2, drops: 1, requests: 200, slow: 3 },
      stolen: { seconds: 2, drops: 8, requests: 200, slow: 13 },
    });
  });
});
