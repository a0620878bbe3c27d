import { describe, expect, it } from 'vitest';
import { configDifferences } from './config-differences';

describe('configDifferences', () => {
  it('lists each knob that differs, not the per-run ones (port, seed, results directory)', () => {
    const a = {
      TURBOPUFFER_BASE_URL: 'http://127.0.0.1:1',
      SEED: 1,
      DIMS: 32,
      ROWS: 20000,
      QUERY_WORKERS: null,
    };
    const b = {
      TURBOPUFFER_BASE_URL: 'http://127.0.0.1:2',
      SEED: 2,
      DIMS: 768,
      ROWS: 20000,
      QUERY_WORKERS: null,
    };
    expect(configDifferences(a, b)).toEqual(['DIMS 32 → 768']);
  });

  it('shows strings bare, other values as JSON, and a knob only one side recorded as unset', () => {
    expect(
      configDifferences({ SELECTIVITIES: '0.1,1', CLEANUP: true }, { SELECTIVITIES: '1', X: null }),
    ).toEqual(['SELECTIVITIES 0.1,1 → 1', 'CLEANUP true → unset', 'X unset → null']);
  });

  it('finds nothing between runs of one profile', () => {
    expect(configDifferences({ DIMS: 768, SEED: 1 }, { DIMS: 768, SEED: 9 })).toEqual([]);
  });
});
