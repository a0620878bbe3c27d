// Experiment 1's profiles, in one place for `make backlog`, `make backlog-smoke` and the tests: emulator flags plus
// the script's knobs (lib/backlog/config.ts). Which one a make target uses: ./experiment.ts.

import type { Profile } from '../experiment';
import { rowBytes } from '../vectors';

/** The local profile's seed, also the emulator's --index-burst (in bytes), so the two cannot disagree. */
const LOCAL_SEED_ROWS = 100_000;

export const PROFILES = {
  // The real service's limits scaled by 1/128: 2 GiB backlog limit -> 16 MiB, 128 MiB eventual tail -> 1 MiB,
  // windows 512 MiB / 1.75 GiB / 2.10 GiB -> 4 / 14 / 16.8 MiB, with the published 100,000 seed rows. The seed is
  // indexed at machine speed (--index-burst: its bytes exactly), the backlog drains at 128 KiB/s: the emulator's
  // search costs more with every row it holds (the service's stays flat from 100,000 to 1.5M rows), so the phases
  // must add few rows to the seed, as they do here and did not at 1/32 with 10,000 seed rows (the trial runs:
  // docs/experiments/backlog.md §6). 25 s cells at 30 queries/s: 750 samples per cell, all three phases within the
  // 5 minutes.
  // QUERY_VUS = QUERY_RATE: the executor hands iterations to its VUs in turn, so each VU iterates once a second and
  // a 25 s window holds exactly 25 of its samples wherever its view of the start falls (with 60 VUs, 2 s apart,
  // each VU's window held 13 of its samples, aligned on the iteration that saw the gate: 780 per cell, QPS 31.2).
  // The latency model at the service's figures (its defaults): with one commit per second each of two writers
  // lands a batch of 300 rows (0.88 MiB) a second, small enough that they hold the backlog above GT_START_BYTES:
  // a writer writes only while a batch fits under GT_START + half the gap LT_CAP..GT_START (18.2 MiB), and the
  // backlog drains 0.3 MiB while a batch waits for its commit. Two writers open the gates in about 3 and 5 s; a
  // query VU sees a gate up to 2 s after the writer and gives the phase up PHASE_TIMEOUT_S after its own wait
  // began (in a trial run a 10 s timeout was too short: docs/experiments/backlog.md §6). The timeout is also idle
  // slack after the last cell in the scenarios' bound, so it stays small.
  local: {
    description:
      'local profile: 1/128 of the real limits, the published 100,000 seed rows, 25 s cells, all three phases in <= 5 minutes',
    emulator: [
      '--backlog-limit',
      '16MiB',
      '--eventual-tail-limit',
      '1MiB',
      '--index-throughput',
      '128KiB',
      '--index-burst',
      String(LOCAL_SEED_ROWS * rowBytes(768)),
    ],
    env: {
      ALLOW_SMALL_THRESHOLDS: '1',
      SEED_ROWS: String(LOCAL_SEED_ROWS),
      MAX_TOTAL_ROWS: '200000',
      LT_START_BYTES: '4MiB',
      LT_CAP_BYTES: '14MiB',
      GT_START_BYTES: '16.8MiB',
      QUERY_DURATION_S: '25',
      QUERY_WARMUP_S: '5',
      QUERY_RATE: '30',
      QUERY_VUS: '30',
      WRITERS: '2',
      WRITE_BATCH_ROWS: '300',
      SEED_BATCH_ROWS: '10000',
      PHASE_TIMEOUT_S: '12',
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
