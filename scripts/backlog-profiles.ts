// Experiment 1's profiles, in one place for `make backlog`, `make backlog-smoke` and the tests: emulator flags plus
// the script's knobs (lib/backlog/config.ts). Which one a make target uses: ./experiments.ts.
import type { Profile } from './experiments';

export const PROFILES = {
  // The real service's limits scaled by 1/32: 2 GiB backlog limit -> 64 MiB, 128 MiB eventual tail -> 4 MiB,
  // windows 512 MiB / 1.75 GiB / 2.10 GiB -> 16 / 56 / 67.2 MiB. Paced so all three phases fit in 5 minutes.
  // The emulator's latency model at the service's figures (its defaults): with one commit per second, the one
  // writer lands one 1,500-row batch (4.4 MiB) a second against 2 MiB/s of indexing, and the seed goes in 2 writes.
  // The gates open about 6 s and 10 s into their waits (make backlog on a fresh clone); PHASE_TIMEOUT_S is their
  // slack in the scenarios' bound, idle once the last cell ends, so it stays small enough for the 5 minutes.
  local: {
    description: 'local profile: 1/32 of the real limits, 30 s cells, all three phases in <= 5 minutes',
    emulator: ['--backlog-limit', '64MiB', '--eventual-tail-limit', '4MiB', '--index-throughput', '2MiB'],
    env: {
      ALLOW_SMALL_THRESHOLDS: '1',
      SEED_ROWS: '10000',
      MAX_TOTAL_ROWS: '300000',
      LT_START_BYTES: '16MiB',
      LT_CAP_BYTES: '56MiB',
      GT_START_BYTES: '67.2MiB',
      QUERY_DURATION_S: '30',
      QUERY_WARMUP_S: '5',
      QUERY_RATE: '20',
      QUERY_VUS: '40',
      WRITERS: '1',
      WRITE_BATCH_ROWS: '1500',
      SEED_BATCH_ROWS: '5000',
      PHASE_TIMEOUT_S: '15',
    },
  },
  // The published smoke values, against an emulator whose limit sits between LT_CAP and GT_START. The
  // latency model is on with a group commit every 100 ms (an older architecture page's window) instead of 1 s, so
  // that the one writer's small batches (a quarter of the 1-4 MiB window) out-pace indexing within the phase timeout.
  smoke: {
    description: 'smoke profile: the published smoke values, under 2 minutes',
    emulator: [
      '--backlog-limit',
      '6MiB',
      '--eventual-tail-limit',
      '512KiB',
      '--index-throughput',
      '512KiB',
      '--commit-interval',
      '100ms',
    ],
    env: {
      ALLOW_SMALL_THRESHOLDS: '1',
      SEED_ROWS: '1000',
      MAX_TOTAL_ROWS: '10000',
      QUERY_DURATION_S: '5',
      QUERY_WARMUP_S: '1',
      LT_START_BYTES: '1MiB',
      LT_CAP_BYTES: '4MiB',
      GT_START_BYTES: '8MiB',
      QUERY_RATE: '10',
      WRITERS: '1',
      PHASE_TIMEOUT_S: '15',
    },
  },
  // The published experiment on the real service (TURBOPUFFER_API_KEY, TURBOPUFFER_REGION, TPUF_BENCH_CONFIRM_COST=1):
  // the script's defaults, which are the published ones.
  service: {
    description:
      'real-service profile: the published experiment (2 GiB backlog limit, 100,000 seed rows; costs money)',
    emulator: null,
    env: {},
  },
} satisfies Record<string, Profile>;

export type ProfileName = keyof typeof PROFILES;
