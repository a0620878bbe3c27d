import { describe, expect, it } from 'vitest';
import { planStudy } from './cells';
import { readFilterCostConfig } from './config';
import { filterCostOptions, filterCostThresholds, JIT_SCENARIO } from './options';
import { filterCostSeriesThresholds, queryClock, seriesPairs } from './series';
import { timeline } from './timeline';

const env = {
  ROWS: '1000',
  CONFIGURATIONS: 'baseline,int-100',
  QUERY_RATE: '10',
  QUERY_DURATION_S: '6',
  QUERY_WARMUP_S: '1',
  CELL_GAP_S: '1',
  JIT_WARMUP_S: '3',
};
const config = readFilterCostConfig(env);
const { cells } = planStudy(config);

describe('timeline', () => {
  it('runs every cell at strong then eventual, one window after another, each after the previous graceful stop', () => {
    const t = timeline(config, cells);
    expect(t.jitMs).toBe(3000);
    expect(t.windows.map((w) => [w.scenario, w.startMs])).toEqual([
      ['baseline_ann_only_100_strong', 4000],
      ['baseline_ann_only_100_eventual', 12000],
      ['int-100_ann_only_100_strong', 20000],
      ['int-100_ann_only_100_eventual', 28000],
      ['int-100_ann_filtered_1_strong', 36000],
      ['int-100_ann_filtered_1_eventual', 44000],
      ['int-100_filter_ordered_1_strong', 52000],
      ['int-100_filter_ordered_1_eventual', 60000],
    ]);
    expect(t.totalMs).toBe(68000);
  });
});

describe('filterCostOptions', () => {
  it('has the warm-up scenario and one scenario per window, in the chosen load model', () => {
    const options = filterCostOptions(config, cells);
    expect(Object.keys(options.scenarios ?? {})).toEqual([
      JIT_SCENARIO,
      ...timeline(config, cells).windows.map((w) => w.scenario),
    ]);
    expect(options.scenarios?.['int-100_ann_filtered_1_strong']).toEqual({
      executor: 'constant-arrival-rate',
      exec: 'query',
      rate: 10,
      timeUnit: '1s',
      duration: '7000ms',
      startTime: '36000ms',
      preAllocatedVUs: 10,
      maxVUs: 10,
      gracefulStop: '1000ms',
    });
    const workers = filterCostOptions(
      readFilterCostConfig({ ...env, QUERY_RATE: '', QUERY_MODE: 'workers' }),
      cells,
    );
    expect(workers.scenarios?.['int-100_ann_filtered_1_strong']).toEqual({
      executor: 'constant-vus',
      exec: 'query',
      vus: 2,
      duration: '7000ms',
      startTime: '36000ms',
      gracefulStop: '1000ms',
    });
    expect(options.summaryTrendStats).toContain('p(99.9)');
  });

  it('gates every window (requests, no failures, exact answers), every filter (selectivity) and the writes', () => {
    const t = filterCostThresholds(config, cells);
    const sel = 'config:int-100,shape:ann_filtered,selectivity:1,consistency:eventual';
    expect(t[`http_reqs{${sel}}`]).toEqual(['count>0']);
    expect(t[`http_req_failed{${sel}}`]).toEqual(['rate==0']);
    expect(t[`query_returned_rows{${sel}}`]).toEqual(['min>=10', 'max<=10']);
    expect(t[`http_req_duration{${sel},expected_response:true}`]).toEqual(['max>=0']);
    expect(t['filter_selectivity_ratio{config:int-100,selectivity:1}']).toEqual(['value>=0.8', 'value<=1.2']);
    expect(t.write_errors).toEqual(['count==0']);
    expect(t.dropped_iterations).toEqual(['count==0']);
    // 8 windows x 13 keys, one filter, the two write counters and the drop count.
    expect(Object.keys(t)).toHaveLength(8 * 13 + 1 + 2 + 1);
    const service = readFilterCostConfig({
      ...env,
      TURBOPUFFER_API_KEY: 'k',
      TURBOPUFFER_REGION: 'gcp-us-central1',
    });
    expect(filterCostThresholds(service, cells)[`query_returned_rows{${sel}}`]).toEqual(['max<=10']);
  });
});

describe('the time series buckets', () => {
  it('gives every bucket a window can reach its consistency, and nothing else', () => {
    const t = timeline(config, cells);
    const clock = queryClock(t, 0);
    // 68 s of windows: 1 s buckets. The JIT warm-up (eventual) and its gap, then 8 s per window with its stop.
    expect(clock).toEqual({ originMs: 0, intervalS: 1, buckets: 68 });
    const pairs = seriesPairs(config, t, clock);
    expect(pairs.slice(0, 5)).toEqual([
      ['0', 'eventual'],
      ['1', 'eventual'],
      ['2', 'eventual'],
      ['3', 'eventual'],
      ['4', 'strong'],
    ]);
    expect(pairs.filter(([, c]) => c === 'strong').map(([ts]) => Number(ts))).toEqual(
      [4, 20, 36, 52].flatMap((s) => Array.from({ length: 8 }, (_, i) => s + i)),
    );
    expect(pairs).toHaveLength(68);
    const thresholds = filterCostSeriesThresholds(config, t);
    expect(Object.keys(thresholds)).toHaveLength(68 * 7);
    expect(filterCostOptions(config, cells).thresholds).toMatchObject(thresholds);
    expect(thresholds['http_reqs{ts:4,consistency:strong}']).toEqual(['count>=0']);
    expect(thresholds['http_reqs{ts:4,consistency:eventual}']).toBeUndefined();
  });
});
