import { describe, expect, it } from 'vitest';
import { planStudy } from './cells';
import { readFilterCostConfig } from './config';
import { configurationStartLine, ingestProgressLine, windowStartLine } from './progress';
import { timeline } from './timeline';

describe("experiment 2's progress lines", () => {
  it('names each window, its cell and consistency, its warm-up and measured time and when the last one ends', () => {
    const config = readFilterCostConfig({});
    const plan = timeline(config, planStudy(config).cells);
    const lines = plan.windows.map((_, i) => windowStartLine(plan, i));
    expect(lines).toHaveLength(76);
    expect(lines[0]).toBe(
      'window 1 of 76, baseline-head ann_only, strong: 2 s warm-up, then 10 s measured; the last window ends in 16 min 28 s',
    );
    expect(lines[21]).toBe(
      'window 22 of 76, int-10k ann_filtered at 0.1%, eventual: 2 s warm-up, then 10 s measured; the last window ends in 11 min 55 s',
    );
  });

  it('says which configuration is ingested, and its rows and backlog while it is written and drained', () => {
    const attribute = { type: 'int' as const, cardinality: 100, filterable: true };
    expect(configurationStartLine({ name: 'int-100', attribute }, 3, 16, 50_000)).toBe(
      'configuration 4 of 16, int-100 (filterable int attribute, 100 values): ingesting 50000 rows',
    );
    expect(configurationStartLine({ name: 'baseline-head', attribute: null }, 0, 16, 50_000)).toBe(
      'configuration 1 of 16, baseline-head (no attribute): ingesting 50000 rows',
    );
    const p = {
      configuration: 'int-100',
      rows: 50_000,
      unindexedBytes: 12 * 2 ** 20,
      approxRowCount: 25_000,
    };
    expect(ingestProgressLine({ ...p, acknowledged: 30_000 })).toBe(
      'int-100: ingesting, 30000 of 50000 rows acknowledged; backlog 12 MiB, 25000 rows counted',
    );
    expect(ingestProgressLine({ ...p, acknowledged: undefined, approxRowCount: null })).toBe(
      'int-100: draining (every row written); backlog 12 MiB',
    );
  });
});
