// Experiment 2's profiles for `make filter-cost`, `make filter-cost-smoke` and the smoke test: the knobs of the one
// `bench run build/filter-cost.js` and the emulator's flags (lib/filter-cost/config.ts reads the knobs).

import type { Profile } from '../experiment';
import { PUBLISHED_CONFIGURATIONS } from './configurations';

/** 100k distinct values cannot exist in the local profile's 50,000 rows: the local matrix leaves that pair out. */
const LOCAL_CONFIGURATIONS = PUBLISHED_CONFIGURATIONS.filter((name) => !name.includes('-100k'));

export const PROFILES = {
  // The published study scaled to 50,000 rows per namespace (12 namespaces, about 1.8 GB of vectors in the
  // emulator at once), everything else as published: 10 s measured per cell and consistency, the full sweep.
  local: {
    description:
      `local profile: ${LOCAL_CONFIGURATIONS.length} configurations x 50,000 rows against one fresh emulator, ` +
      '10 s per cell and consistency (about 16 minutes)',
    emulator: [],
    env: { ROWS: '50000', CONFIGURATIONS: LOCAL_CONFIGURATIONS.join(',') },
  },
  // `make test` runs this (tests/filter-cost/smoke.test.ts): every kind of configuration (baseline twice, a
  // cardinality without 1 %, one value, a range, a non-filterable twin), both consistencies and a sweep of 0.1, 1,
  // 10 and 100 %, in under a minute. Tiny vectors keep setup short; 1 s windows are k6's shortest scenarios. The
  // latency model is on with a group commit every 100 ms (an older architecture page's window) instead of 1 s.
  smoke: {
    description:
      'smoke profile: 6 configurations x 20,000 rows of 32-d vectors, 1 s windows (about a minute)',
    emulator: ['--commit-interval', '100ms'],
    env: {
      ROWS: '20000',
      DIMS: '32',
      CONFIGURATIONS: 'baseline-head,int-2,string-100,int-10k,string-10k-unfiltered,baseline-tail',
      SELECTIVITIES: '0.1,10,100',
      QUERY_RATE: '10',
      QUERY_DURATION_S: '0.8',
      QUERY_WARMUP_S: '0.2',
      CELL_GAP_S: '0.2',
      JIT_WARMUP_S: '1',
      RECALL_QUERIES: '3',
      WRITE_BATCH_ROWS: '2000',
      INGEST_WARMUP_ROWS: '4000',
    },
  },
  // The published study on the real service (TURBOPUFFER_API_KEY, TURBOPUFFER_REGION, TPUF_BENCH_CONFIRM_COST=1):
  // 14 namespaces of 1M rows, the script's defaults for everything else.
  service: {
    description: 'real-service profile: the published 14 configurations x 1,000,000 rows (costs money)',
    emulator: null,
    env: {},
  },
} satisfies Record<string, Profile>;
