// Experiment 3's profiles (lib/experiment.ts): the emulator's flags and the script's knobs.
import type { Profile } from '../experiment';
import { rowBytes } from '../vectors';

const LOCAL_SEED_ROWS = 20_000;

export const PROFILES = {
  // The service's limits scaled down: a 1 MiB eventual tail (128 MiB) and a 4 MiB unindexed limit (2 GiB), with the
  // backlog drained at 128 KiB/s, so a probe written past the tail waits (backlog - tail) / 128 KiB/s: about 12 s
  // between the tail and the limit, about 30 s above it. The seed is indexed at machine speed (--index-burst).
  // 20 s bands, all four within about four minutes.
  local: {
    description:
      'local profile: a 1 MiB tail and a 4 MiB limit, 20,000 seed rows, 20 s bands (about 4 minutes)',
    emulator: [
      '--backlog-limit',
      '4MiB',
      '--eventual-tail-limit',
      '1MiB',
      '--index-throughput',
      '128KiB',
      '--index-burst',
      String(LOCAL_SEED_ROWS * rowBytes(768)),
    ],
    env: {
      ALLOW_SMALL_LIMITS: '1',
      TAIL_LIMIT_BYTES: '1MiB',
      BACKLOG_LIMIT_BYTES: '4MiB',
      SEED_ROWS: String(LOCAL_SEED_ROWS),
      MAX_TOTAL_ROWS: '100000',
      BAND_DURATION_S: '20',
      BAND_WARMUP_S: '3',
      PHASE_TIMEOUT_S: '30',
      PROBE_RATE: '1',
      PROBE_INTERVAL_MS: '250',
      PROBE_TIMEOUT_S: '60',
      QUERY_RATE: '2',
      // Small batches (72 KiB, about half a second of indexing): the visibility check's resolution is one write.
      WRITERS: '4',
      WRITE_BATCH_ROWS: '24',
    },
  },
  // `make test` runs this (tests/freshness/smoke.test.ts): 32-d vectors and limits to match (a 64 KiB tail, a
  // 256 KiB limit, 8 KiB/s of indexing), 5 s bands, a group commit every 100 ms. Writers see the backlog once a
  // second, so it sags by a second of indexing between readings: at 8 KiB/s a writer can miss more than a second
  // (a loaded CI machine) before the below-tail band's backlog leaves its 16 KiB to 48 KiB gate.
  smoke: {
    description: 'smoke profile: 32-d vectors, a 64 KiB tail, a 256 KiB limit, 5 s bands (about two minutes)',
    emulator: [
      '--backlog-limit',
      '256KiB',
      '--eventual-tail-limit',
      '64KiB',
      '--index-throughput',
      '8KiB',
      '--commit-interval',
      '100ms',
    ],
    env: {
      ALLOW_SMALL_LIMITS: '1',
      TAIL_LIMIT_BYTES: '64KiB',
      BACKLOG_LIMIT_BYTES: '256KiB',
      SEED_ROWS: '2000',
      MAX_TOTAL_ROWS: '20000',
      DIMS: '32',
      BAND_DURATION_S: '5',
      BAND_WARMUP_S: '1',
      PHASE_TIMEOUT_S: '15',
      PROBE_RATE: '1',
      PROBE_INTERVAL_MS: '500',
      PROBE_TIMEOUT_S: '60',
      QUERY_RATE: '2',
      WRITERS: '2',
      WRITE_BATCH_ROWS: '30',
    },
  },
  // The real service (TURBOPUFFER_API_KEY, TURBOPUFFER_REGION, TPUF_BENCH_CONFIRM_COST=1): the script's defaults.
  service: {
    description:
      'real-service profile: the 128 MiB tail and 2 GiB limit, 100,000 seed rows, 60 s bands (costs money)',
    emulator: null,
    env: {},
  },
} satisfies Record<string, Profile>;
