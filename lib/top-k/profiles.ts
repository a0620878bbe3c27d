// The top-k experiment's profiles (lib/experiment.ts): the emulator's flags and the script's knobs.
import type { Profile } from '../experiment';

export const PROFILES = {
  // 20,000 rows keep setup short on the emulator; the sweep and windows as the defaults otherwise, shortened.
  local: {
    description: 'local profile: 20,000 rows, top_k 1 to 1000, 10 s per top_k (about a minute)',
    emulator: [],
    env: { ROWS: '20000', QUERY_DURATION_S: '10', QUERY_WARMUP_S: '2' },
  },
  // `make test` runs this (tests/top-k/smoke.test.ts): tiny vectors, 1 s windows.
  smoke: {
    description: 'smoke profile: 2,000 rows of 32-d vectors, top_k 1, 10, 100, 1 s per top_k (seconds)',
    emulator: [],
    env: {
      ROWS: '2000',
      DIMS: '32',
      TOP_KS: '1,10,100',
      QUERY_DURATION_S: '1',
      QUERY_WARMUP_S: '0',
      QUERY_RATE: '10',
    },
  },
  // The real service (TURBOPUFFER_API_KEY, TURBOPUFFER_REGION, TPUF_BENCH_CONFIRM_COST=1): the script's defaults.
  service: {
    description: 'real-service profile: 100,000 rows, top_k 1 to 1000, 30 s per top_k (costs money)',
    emulator: null,
    env: {},
  },
} satisfies Record<string, Profile>;
