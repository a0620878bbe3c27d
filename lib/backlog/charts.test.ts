import { describe, expect, it } from 'vitest';
import { backlogCharts } from './charts';
import { buildResult } from './results/json';
import legacy from './results/testdata/result-before-series.json';
import { fixtureConfig, fixtureRun, fixtureSummary } from './results/testdata/summary-fixture';

const byId = (set: ReturnType<typeof backlogCharts>, id: string) => {
  const chart = set.charts.find((c) => c.id === id);
  if (!chart) throw new Error(`no ${id} chart`);
  return chart;
};
const series = (chart: ReturnType<typeof byId>, name: string) =>
  chart.series.find((s) => s.name === name)?.points;

describe('backlog charts from a result with the time series', () => {
  const set = backlogCharts(buildResult(fixtureSummary(), fixtureConfig, fixtureRun));

  it('draws latency per bucket and consistency (breaking between cells), the backlog, phases and gates', () => {
    const latency = byId(set, 'latency');
    expect(latency.series.map((s) => s.name)).toEqual([
      'strong p50',
      'strong p99',
      'eventual p50',
      'eventual p99',
      'backlog (unindexed)',
    ]);
    // Bucket middles; the line breaks where the buckets stop (the eventual window, the next wait).
    expect(series(latency, 'strong p50')).toEqual([
      [1.5, 2.5],
      [2.5, 2.5],
      [3.5, 2.5],
      [4.5, 2.5],
      [5.5, 3.5],
      [6, null],
      [13.5, 3.5],
      [14.5, 3.5],
      [15.5, 3.5],
      [16.5, 3.5],
      [17.5, 4.5],
      [18, null],
      [25.5, 4.5],
      [26.5, 4.5],
      [27.5, 4.5],
      [28.5, 4.5],
      [29.5, 5.5],
    ]);
    expect(series(latency, 'eventual p99')?.slice(0, 2)).toEqual([
      [7.5, 6],
      [8.5, 6],
    ]);
    const backlog = latency.series[4];
    expect(backlog).toMatchObject({ axis: 'y2', area: true });
    expect(backlog.points.slice(10, 14)).toEqual([
      [10.25, 0],
      [11.25, 0],
      [12.25, 1],
      [13.25, 2],
    ]);
    expect(backlog.points).toHaveLength(36);
    expect(latency.bands).toEqual([
      { axis: 'x', from: 0, to: 12, label: 'idle', color: 0 },
      { axis: 'x', from: 12, to: 24, label: 'indexing below the limit', color: 1 },
      { axis: 'x', from: 24, to: 36, label: 'indexing above the limit', color: 2 },
    ]);
    // The fixture's emulator reported a 6 MiB limit (target.emulator.settings).
    expect(latency.lines).toEqual([
      { axis: 'y2', value: 4, label: 'below-limit cap (LT_CAP_BYTES)' },
      { axis: 'y2', value: 8, label: 'above-limit floor (GT_START_BYTES)' },
      { axis: 'y2', value: 6, label: "limit (the emulator's --backlog-limit)", labelMiddle: true },
    ]);
  });

  it('draws the error share per bucket', () => {
    const errors = byId(set, 'errors');
    expect(series(errors, 'strong errors')?.slice(-6)).toEqual([
      [18, null],
      [25.5, 45],
      [26.5, 45],
      [27.5, 45],
      [28.5, 45],
      [29.5, 45],
    ]);
    expect(series(errors, 'eventual errors')?.every(([, y]) => y === 0 || y === null)).toBe(true);
  });

  it('puts the latency and error charts on one time axis, to the end of the later one', () => {
    const latency = byId(set, 'latency');
    const errors = byId(set, 'errors');
    const lastX = (c: typeof latency) =>
      Math.max(...c.series.flatMap((s) => s.points.map(([x]) => Number(x))));
    // Both end with the last query bucket's middle; the axis ends at the next 10 s beyond the data and the bands.
    expect([lastX(errors), lastX(latency)]).toEqual([35.5, 35.5]);
    expect([latency.x.max, errors.x.max]).toEqual([40, 40]);
    // The per-cell chart keeps its category axis.
    expect(byId(set, 'cells').x.max).toBeUndefined();
  });

  it("draws each cell's percentiles beside the published ones (another axis for a local target)", () => {
    const cells = byId(set, 'cells');
    expect(cells.x.categories).toEqual([
      'idle\nstrong',
      'idle\neventual',
      'below limit\nstrong',
      'below limit\neventual',
      'above limit\nstrong',
      'above limit\neventual',
    ]);
    expect(series(cells, 'client p99')?.map(([, y]) => y)).toEqual([8, 8, 11, 11, 14, 14]);
    expect(cells.series.find((s) => s.name === 'published p99')).toMatchObject({
      axis: 'y2',
      reference: true,
      points: [
        ['idle\nstrong', 79.8],
        ['idle\neventual', 75.7],
        ['below limit\nstrong', 264.8],
        ['below limit\neventual', 71.1],
        ['above limit\nstrong', 694.8],
        ['above limit\neventual', 626],
      ],
    });
    expect(set.notes).toEqual([]);
  });

  it('draws the service limit on a real-service run, and the published times on the same axis', () => {
    const r = buildResult(fixtureSummary(), fixtureConfig, fixtureRun);
    const service = backlogCharts({
      ...r,
      target: { kind: 'turbopuffer', base_url: 'https://x', emulator: null },
    });
    expect(byId(service, 'latency').lines?.[2]).toEqual({
      axis: 'y2',
      value: 2048,
      label: 'limit (2 GiB)',
      labelMiddle: true,
    });
    expect(byId(service, 'cells').y2).toBeUndefined();
    expect(service.notes).toEqual([]);
  });
});

describe('backlog charts from a result that predates the time series', () => {
  const set = backlogCharts(legacy as unknown as Parameters<typeof backlogCharts>[0]);

  it("holds each cell's figures across its window, from the first warm-up on", () => {
    const latency = byId(set, 'latency');
    expect(series(latency, 'strong p50')).toEqual([
      [5, 2.965],
      [35, 2.965],
      [35, null],
      [77, 8.507],
      [107, 8.507],
      [107, null],
      [149, null],
      [179, null],
      [179, null],
    ]);
    expect(series(latency, 'backlog (unindexed)')?.slice(0, 7)).toEqual([
      [-1.829, 0],
      [5.118, 0],
      [34.031, 0],
      [40.049, 0],
      [69.171, 0],
      [77.012, 43.96],
      [106.128, 42.978],
    ]);
    expect(latency.bands?.map((b) => [b.label, b.from, b.to])).toEqual([
      ['idle', 0, 70],
      ['indexing below the limit', 72, 142],
      ['indexing above the limit', 144, 214],
    ]);
    expect(set.notes[1]).toBe(
      "The target's backlog limit is not in the result: the dashed lines are the phase gates (the limit lies between them).",
    );
    expect(series(byId(set, 'errors'), 'strong errors')?.slice(6)).toEqual([
      [149, 100],
      [179, 100],
      [179, null],
    ]);
    expect(set.notes[0]).toBe(
      "This result predates the time series: the latency and error charts hold each cell's figures across its " +
        'window, and the backlog is drawn from the 13 metadata snapshots.',
    );
  });
});
