// The smallest backlog environment readBacklogConfig accepts (the smoke sizes; ALLOW_SMALL_THRESHOLDS lets gates this
// small through), for tests that need a whole config: each adds the knobs it is about. Kept apart from the smoke
// profile in lib/backlog/profiles.ts so that retuning that profile does not move these tests' expectations.
export const SMALL_ENV: Readonly<Record<string, string>> = {
  SEED_ROWS: '1000',
  MAX_TOTAL_ROWS: '10000',
  QUERY_DURATION_S: '5',
  QUERY_WARMUP_S: '1',
  LT_START_BYTES: '1MiB',
  LT_CAP_BYTES: '4MiB',
  GT_START_BYTES: '8MiB',
  ALLOW_SMALL_THRESHOLDS: '1',
};
