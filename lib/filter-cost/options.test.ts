import { describe, expect, it } from 'vitest';
import { planCells } from './cells';
import { readFilterCostConfig } from './config';
import { filterCostOptions, filterCostThresholds, JIT_SCENARIO, timeline, warmupIterations } from './options';

const config = readFilterCostConfig({
  ROWS: '1000',
  CARDINALITY: '2',
  QUERY_RATE: '10',
  QUERY_DURATION_S: '6',
  QUERY_WARMUP_S: '1',
  CELL_GAP_S: '1',
  JIT_WARMUP_S: '3',
});
const { cells } = planCells(config);

describe('timeline', () => {
  it('runs the cells one after another, each after the previous graceful stop', () => {
    const t = timeline(config, cells);
    expect(t.jitMs).toBe(3000);
    expect(t.windows.map((w) => w.startMs)).toEqual([4000, 12000, 20000, 28000, 36000]);
    expect(t.totalMs).toBe(44000);
    expect(warmupIterations(config)).toBe(10);
  });
});

describe('filterCostOptions', () => {
  const options = filterCostOptions(config, cells);

  it('has the warm-up scenario and one arrival-rate scenario per cell', () => {
    expect(Object.keys(options.scenarios ?? {})).toEqual([JIT_SCENARIO, ...cells.map((c) => c.id)]);
    expect(options.scenarios?.ann_filtered).toEqual({
      executor: 'constant-arrival-rate',
      exec: 'query',
      rate: 10,
      timeUnit: '1s',
      duration: '7s',
      startTime: '12s',
      preAllocatedVUs: 10,
      maxVUs: 10,
      gracefulStop: '1s',
    });
    expect(options.tags).toEqual({ config: 'int-2' });
    expect(options.batchPerHost).toBe(4);
  });

  it('gates requests, errors, drops and exact row counts per cell', () => {
    const t = filterCostThresholds(cells, { exactRowCounts: true });
    expect(t['http_reqs{shape:ann_range,selectivity:50}']).toEqual(['count>0']);
    expect(t['http_req_failed{shape:ann_filtered,selectivity:50}']).toEqual(['rate==0']);
    expect(t['dropped_iterations{scenario:filter_ordered}']).toEqual(['count==0']);
    expect(t['query_returned_rows{shape:ann_only,selectivity:100}']).toEqual(['min>=10', 'max<=10']);
    expect(t['http_req_duration{shape:ann_only,selectivity:100,expected_response:true}']).toEqual(['max>=0']);
    expect(Object.keys(t)).toHaveLength(cells.length * 14);
    const relaxed = filterCostThresholds(cells, { exactRowCounts: false });
    expect(relaxed['query_returned_rows{shape:ann_only,selectivity:100}']).toEqual(['max<=10']);
  });
});
