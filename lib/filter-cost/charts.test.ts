import { describe, expect, it } from 'vitest';
import { filterCostCharts } from './charts';
import { buildFilterCostResult } from './results/json';
import { fixtureConfig, fixturePlan, fixtureRunInfo, fixtureSummary } from './results/testdata/fixture';

const result = buildFilterCostResult(fixtureSummary(), fixtureConfig, fixturePlan, fixtureRunInfo());
const set = filterCostCharts(result);
const chart = (id: string) => {
  const c = set.charts.find((x) => x.id === id);
  if (!c) throw new Error(`no ${id} chart`);
  return c;
};

describe('filter-cost charts from a golden result', () => {
  it('draws p95 against selectivity per shape and consistency, with intervals, and the published sweep', () => {
    const sweep = chart('sweep');
    expect(sweep.x).toEqual({ title: 'rows matching the filter (%)', kind: 'log', unit: '%' });
    expect(sweep.series.map((s) => s.name)).toEqual([
      'ann_filtered strong',
      'ann_filtered eventual',
      'filter_ordered strong',
      'filter_ordered eventual',
      'published ann_filtered strong',
      'published filter_ordered strong',
    ]);
    expect(sweep.series[0]).toMatchObject({
      points: [
        [0.1, 6.652],
        [1, 6.971],
        [10, 5.505],
      ],
      intervals: [
        [6.003, 7.624],
        [6.59, 9.009],
        [5.127, 6.504],
      ],
    });
    // The emulator's times have no network round trip: the published ones go on the right axis.
    expect(sweep.series[5]).toMatchObject({
      axis: 'y2',
      reference: true,
      points: [
        [0.1, 50.5],
        [1, 62.2],
        [10, 229.9],
        [50, 90.2],
        [100, 127.4],
      ],
    });
  });

  it('draws the headline as ratios to the baselines, ours beside the published', () => {
    const headline = chart('headline');
    expect(headline.x.categories).toEqual(['int-100', 'int-10k']);
    expect(headline.series.map((s) => [s.name, s.points])).toEqual([
      [
        'strong (this run)',
        [
          ['int-100', 1.125],
          ['int-10k', 1.038],
        ],
      ],
      [
        'eventual (this run)',
        [
          ['int-100', 1.181],
          ['int-10k', 1.293],
        ],
      ],
      [
        'published strong',
        [
          ['int-100', 1.189],
          ['int-10k', 1.361],
        ],
      ],
      [
        'published eventual',
        [
          ['int-100', 1.297],
          ['int-10k', 1.52],
        ],
      ],
    ]);
    expect(headline.series[0].intervals).toEqual([
      [1.068, 1.287],
      [0.981, 1.341],
    ]);
    expect(headline.lines).toEqual([{ axis: 'y', value: 1, label: 'ann_only baseline' }]);
  });

  it('draws ingest per configuration in run order inside the head/tail band, and every drain curve', () => {
    const ingest = chart('ingest');
    expect(ingest.series[0].points).toEqual([
      ['baseline-head', 10000],
      ['int-2', 9756.1],
      ['int-100', 9523.8],
      ['int-10k', 10000],
      ['int-10k-unfiltered', 9756.1],
      ['baseline-tail', 9523.8],
    ]);
    expect(ingest.bands).toEqual([{ axis: 'y', from: 9523.8, to: 10000, label: '' }]);
    expect(ingest.lines).toEqual([{ axis: 'y', value: 9761.9, label: 'baseline mean (band: head to tail)' }]);
    expect(ingest.subtitle).toContain('drift -4.8 %');
    const drain = chart('drain');
    expect(drain.series.map((s) => s.name)).toEqual(fixtureConfig.configurations.map((x) => x.name));
    expect(drain.series[2].points).toEqual([
      [0, 0],
      [0.5, 11.78],
      [1, 26.505],
      [2.35, 8.835],
      [2.6, 0],
    ]);
    // Polls while ingesting come between write rounds, not on the poll interval: only the drain's are 0.25 s apart.
    expect(drain.subtitle).toContain(
      'of every metadata poll (between write rounds while ingesting, every 0.25 s after the last write)',
    );
  });

  it('leaves out what the run did not measure and says so', () => {
    const noSweep = filterCostCharts({
      ...result,
      cells: result.cells.filter((c) => c.selectivity_target !== 0.001 && c.selectivity_target !== 0.1),
      config: { ...result.config, SWEEP_CONFIGURATION: 'none' },
    });
    expect(noSweep.charts.map((c) => c.id)).toEqual(['headline', 'ingest', 'drain']);
    expect(noSweep.notes[0]).toBe('no sweep cells in this run: no selectivity chart');
  });
});
