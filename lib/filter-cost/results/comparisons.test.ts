import { describe, expect, it } from 'vitest';
import {
  baselineMean,
  driftPct,
  filterableDeltas,
  type IngestFigures,
  vsBaselineMeanPct,
} from './comparisons';

const x = (
  name: string,
  rows_per_s: number | null,
  bytes: number | null = null,
  billed = 0,
): IngestFigures => ({
  name,
  attribute: name.startsWith('baseline')
    ? null
    : { type: 'int', cardinality: 10_000, filterable: !name.endsWith('-unfiltered') },
  rows_per_s,
  approx_logical_bytes: bytes,
  billable_bytes_written: billed,
});

describe('comparisons against the baselines of the same run', () => {
  const run = [
    x('baseline-head', 1000),
    x('int-10k', 970, 3_088_000_000 + 4_000_000, 3_088_000_000),
    x('int-10k-unfiltered', 990, 3_088_000_000, 3_088_000_000),
    x('baseline-tail', 1012),
  ];

  it('states the drift of the tail baseline against the head, in %', () => {
    expect(driftPct(run)).toBeCloseTo(1.2, 10);
    expect(driftPct(run.slice(0, 3))).toBeNull();
    expect(driftPct([x('baseline-head', null), x('baseline-tail', 10)])).toBeNull();
  });

  it('compares each configuration with the mean of the baselines', () => {
    const mean = baselineMean(run);
    expect(mean).toBe(1006);
    expect(vsBaselineMeanPct(run[1], mean)).toBeCloseTo(-3.5785, 3);
    expect(vsBaselineMeanPct(run[0], mean)).toBeNull();
    expect(baselineMean([run[1]])).toBeNull();
  });

  it("takes the filterable attribute's storage over its non-filterable twin", () => {
    expect(filterableDeltas(run)).toEqual([
      {
        filterable: 'int-10k',
        unfiltered: 'int-10k-unfiltered',
        logical_bytes: 4_000_000,
        billable_bytes_written: 0,
      },
    ]);
    expect(filterableDeltas(run.filter((r) => r.name !== 'int-10k'))).toEqual([]);
  });
});
