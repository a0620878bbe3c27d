import { describe, expect, it } from 'vitest';
import { readBacklogConfig } from './config';
import { scenarioOptionsFor } from './options';
import { gatesOf } from './phases';
import { backlogSeriesThresholds } from './series';
import { SMALL_ENV } from './testdata/small-env';
import { backlogThresholds } from './thresholds';

const MiB = 2 ** 20;
const gates = { ltStartBytes: 1 * MiB, ltCapBytes: 4 * MiB, gtStartBytes: 8 * MiB };

describe('backlogThresholds', () => {
  const t = backlogThresholds(gates, 'arrival');

  it('encodes the acceptance checks of the issue', () => {
    expect(t.dropped_iterations).toEqual(['count==0']);
    expect(t['http_reqs{phase:idle,consistency:strong}']).toEqual(['count>0']);
    expect(t['http_req_failed{phase:idle,consistency:eventual}']).toEqual(['rate==0']);
    expect(t['http_req_failed{phase:indexing_above_limit,consistency:strong}']).toEqual(['rate>0']);
    expect(t['query_errors{phase:indexing_above_limit,consistency:strong,error_class:5xx}']).toEqual([
      'count==0',
    ]);
    expect(t['query_errors{phase:indexing_above_limit,consistency:strong,error_class:429}']).toEqual([
      'count>=0',
    ]);
    expect(t['snapshot_unindexed_bytes{phase:indexing_below_limit,consistency:eventual,edge:end}']).toEqual([
      'value>=1048576',
      'value<=4194304',
    ]);
    expect(t['snapshot_unindexed_bytes{phase:indexing_above_limit,consistency:strong,edge:start}']).toEqual([
      'value>=8388608',
    ]);
  });

  it('declares every per-cell sub-metric so it reaches handleSummary, and only always-true rules elsewhere', () => {
    expect(Object.keys(t)).toHaveLength(1 + 6 * 20);
    expect(t['recall_at_k{phase:idle,consistency:eventual}']).toEqual(['max>=0']);
    expect(t['http_req_failed{phase:indexing_below_limit,consistency:strong}']).toEqual(['rate>=0']);
    expect(t['server_total_ms{phase:idle,consistency:strong}']).toEqual(['max>=0']);
  });
});

describe('scenario options', () => {
  const config = readBacklogConfig({ ...SMALL_ENV, QUERY_RATE: '10', PHASE_TIMEOUT_S: '15' });

  it('bounds both scenarios by the cells, the gate waits and slack', () => {
    const options = scenarioOptionsFor(config);
    // 6 cells of 6 s + 2 waits of 15 s + 2 holds of 2 s + 6 s slack.
    expect(options.scenarios).toEqual({
      queries: {
        executor: 'constant-arrival-rate',
        exec: 'query',
        rate: 10,
        timeUnit: '1s',
        duration: '76000ms',
        preAllocatedVUs: 10,
        maxVUs: 10,
        gracefulStop: '10000ms',
      },
      writer: { executor: 'constant-vus', exec: 'write', vus: 4, duration: '76s', gracefulStop: '5s' },
      recall: {
        executor: 'constant-arrival-rate',
        exec: 'recall',
        rate: 1,
        timeUnit: '1s',
        duration: '76s',
        preAllocatedVUs: 2,
        maxVUs: 2,
        gracefulStop: '10000ms',
      },
    });
    expect(scenarioOptionsFor({ ...config, recallRate: 0 }).scenarios).not.toHaveProperty('recall');
    expect(options.thresholds).toEqual({
      ...backlogThresholds(gatesOf(config), 'arrival'),
      ...backlogSeriesThresholds(config),
    });
    // The series: 76 buckets of 1 s, 7 query sub-metrics per bucket and consistency, 4 poll gauges and the rows
    // counter per bucket.
    expect(Object.keys(backlogSeriesThresholds(config))).toHaveLength(76 * (2 * 7 + 4 + 1));
    expect(
      options.thresholds?.['http_req_duration{ts:75,consistency:strong,expected_response:true}'],
    ).toEqual(['max>=0']);
    expect(options.summaryTrendStats).toContain('p(99)');
  });
});
