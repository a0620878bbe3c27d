// Experiment 1's knobs: names and defaults of the published harness, the target (read as every experiment reads it,
// lib/common-knobs.ts) and the refusal rules, all checked before anything is written. Pure: `readBacklogConfig(__ENV)`.

import { formatBytes } from '../../core/sizes';
import {
  LAUNCHER_KNOBS,
  type QueryLoad,
  queryLoadKnobs,
  RUN_KNOBS,
  readNamespace,
  readTarget,
  resolveQueryLoad,
  SEEDING_KNOBS,
  TARGET_KNOBS,
  type Target,
} from '../common-knobs';
import { EnvError, EnvReader, type EnvRecord } from '../env';
import { checkKnobNames, knob, META_KNOBS, readKnobs } from '../knobs';
import { rowBytes } from '../vectors';

/** Every knob of the experiment, resolved. Serialised as `config` in the result JSON. */
export interface BacklogConfig {
  target: Target;
  /** Namespace to create; undefined = `bench-backlog-<timestamp>` chosen in setup(). */
  namespace: string | undefined;
  /** Rows written and indexed before the first phase. @default 100000 */
  seedRows: number;
  /** Hard ceiling on rows ever written (seed included). @default 1500000 */
  maxTotalRows: number;
  /** Measured seconds per cell. @default 60 */
  queryDurationS: number;
  /** Warm-up seconds before each cell's measured window (samples tagged `transition`). @default 10 */
  queryWarmupS: number;
  /** Backlog window of the below-limit phase: [ltStartBytes, ltCapBytes]. @default 512MiB, 1.75GiB */
  ltStartBytes: number;
  ltCapBytes: number;
  /** The above-limit phase holds the backlog at or above this. @default 2.10GiB */
  gtStartBytes: number;
  allowSmallThresholds: boolean;
  /** Delete the namespace at the end (also after an abort) when this run created it. @default true */
  cleanup: boolean;
  /** The query scenario's load model and size. @default 100 queries/s (arrival), or 8 workers */
  load: QueryLoad;
  /** @default 10 */
  topK: number;
  /** @default 768 */
  dims: number;
  /** Seed of every random vector; undefined = drawn in setup() and printed. */
  seed: number | undefined;
  /** Recall samples per second (ANN against exact kNN) in the measured windows; 0 turns them off. @default 1 */
  recallRate: number;
  /** Writer VUs (constant-vus). @default 4 */
  writers: number;
  /**
   * Rows per write request of the writers. WRITERS x WRITE_BATCH_ROWS must out-pace the target's indexing (a
   * namespace commits about one WAL entry per second), or the backlog gates never hold.
   * @default 2000 (about 6 MB), or a quarter of the below-limit window if smaller
   */
  writeBatchRows: number;
  /** Rows per write request while seeding. @default 1000 */
  seedBatchRows: number;
  /** Longest wait for a phase's backlog gate before the phase is given up. @default 900 */
  phaseTimeoutS: number;
  /** setup() may take this long (seeding and waiting for the index). @default 1800 */
  setupTimeoutS: number;
  /** Where handleSummary writes `<namespace>-<timestamp>.md|.json`. @default results */
  resultsDir: string;
}

const REAL_SERVICE_THRESHOLDS = {
  ltStartBytes: 512 * 2 ** 20,
  ltCapBytes: Math.floor(1.75 * 2 ** 30),
  gtStartBytes: Math.floor(2.1 * 2 ** 30),
} as const;

/** The published harness ran 8 query workers; bench's default is the open model at 100 queries/s. */
const LOAD_DEFAULTS = { rate: 100, workers: 8 };

/** Every knob of experiment 1: name, default, meaning and parser (`-e HELP=1` prints this table). */
export const BACKLOG_KNOBS = {
  ...TARGET_KNOBS,
  NAMESPACE: knob('bench-backlog-<timestamp>', 'namespace to create (an existing one is refused)', (e) =>
    readNamespace(e),
  ),
  SEED_ROWS: knob('100000', 'rows written and indexed in setup, before the idle phase', (e, n) =>
    e.int(n, 100000, { min: 1 }),
  ),
  MAX_TOTAL_ROWS: knob('1500000', 'ceiling on rows ever written (seed included)', (e, n) =>
    e.int(n, 1500000, { min: 1 }),
  ),
  QUERY_DURATION_S: knob('60', 'measured seconds per cell', (e, n) => e.int(n, 60, { min: 1 })),
  QUERY_WARMUP_S: knob('10', 'warm-up seconds before each cell (samples tagged transition)', (e, n) =>
    e.int(n, 10, { min: 0 }),
  ),
  LT_START_BYTES: knob('512MiB', 'below-limit window start (index.unindexed_bytes)', (e, n) =>
    e.size(n, REAL_SERVICE_THRESHOLDS.ltStartBytes),
  ),
  LT_CAP_BYTES: knob('1.75GiB', 'below-limit window end', (e, n) =>
    e.size(n, REAL_SERVICE_THRESHOLDS.ltCapBytes),
  ),
  GT_START_BYTES: knob('2.10GiB', 'above-limit floor', (e, n) =>
    e.size(n, REAL_SERVICE_THRESHOLDS.gtStartBytes),
  ),
  ALLOW_SMALL_THRESHOLDS: knob(
    '0',
    '1 allows thresholds below the three defaults (scaled emulator runs)',
    (e, n) => e.bool(n, false),
  ),
  ...queryLoadKnobs(LOAD_DEFAULTS),
  RECALL_RATE: knob(
    '1',
    'recall samples per second in the measured windows (ANN against exact kNN; 0: none), beside the query stream',
    (e, n) => e.number(n, 1, { min: 0, max: 100 }),
  ),
  WRITERS: knob(
    '4',
    'writer VUs; with WRITE_BATCH_ROWS they must out-pace indexing or the gates never hold',
    (e, n) => e.int(n, 4, { min: 1, max: 256 }),
  ),
  WRITE_BATCH_ROWS: knob(
    '2000, at most 1/4 of the window',
    'rows per writer request (about 6 MB at 768 dims)',
    (e, n) => (e.raw(n) === undefined ? undefined : e.int(n, 0, { min: 1 })),
  ),
  PHASE_TIMEOUT_S: knob(
    '900',
    "longest wait for a phase's backlog gate before the phase is given up",
    (e, n) => e.int(n, 900, { min: 1 }),
  ),
  ...SEEDING_KNOBS,
  ...RUN_KNOBS,
  ...LAUNCHER_KNOBS,
  ...META_KNOBS,
};

export function readBacklogConfig(env: EnvRecord): BacklogConfig {
  checkKnobNames(BACKLOG_KNOBS, env, 'build/backlog.js');
  const e = new EnvReader(env);
  const k = readKnobs(BACKLOG_KNOBS, e);
  // Small windows (scaled runs) need finer writes: by default a batch is at most a quarter of the window.
  const window = k.LT_CAP_BYTES - k.LT_START_BYTES;
  const defaultBatch = Math.max(1, Math.min(2000, Math.floor(window / 4 / rowBytes(k.DIMS))));
  const config: BacklogConfig = {
    target: readTarget(e),
    namespace: k.NAMESPACE,
    seedRows: k.SEED_ROWS,
    maxTotalRows: k.MAX_TOTAL_ROWS,
    queryDurationS: k.QUERY_DURATION_S,
    queryWarmupS: k.QUERY_WARMUP_S,
    ltStartBytes: k.LT_START_BYTES,
    ltCapBytes: k.LT_CAP_BYTES,
    gtStartBytes: k.GT_START_BYTES,
    allowSmallThresholds: k.ALLOW_SMALL_THRESHOLDS,
    cleanup: k.CLEANUP,
    // All query VUs are pre-allocated by default: a VU created mid-run has not watched the phase gates open, so it
    // may count its samples only in part of a cell (./phases.ts).
    load: resolveQueryLoad(k, LOAD_DEFAULTS),
    topK: k.TOP_K,
    dims: k.DIMS,
    seed: k.SEED,
    recallRate: k.RECALL_RATE,
    writers: k.WRITERS,
    writeBatchRows: k.WRITE_BATCH_ROWS ?? defaultBatch,
    seedBatchRows: k.SEED_BATCH_ROWS,
    phaseTimeoutS: k.PHASE_TIMEOUT_S,
    setupTimeoutS: k.SETUP_TIMEOUT_S,
    resultsDir: k.RESULTS_DIR,
  };
  checkConsistency(config);
  return config;
}

function checkConsistency(c: BacklogConfig): void {
  const small = (Object.keys(REAL_SERVICE_THRESHOLDS) as (keyof typeof REAL_SERVICE_THRESHOLDS)[]).filter(
    (k) => c[k] < REAL_SERVICE_THRESHOLDS[k],
  );
  if (small.length > 0 && !c.allowSmallThresholds) {
    const names = small.map((k) => `${envName(k)}=${formatBytes(c[k])}`).join(', ');
    throw new EnvError(
      envName(small[0]),
      `${names} is below the real service's default (LT_START_BYTES=512MiB, LT_CAP_BYTES=1.75GiB, ` +
        'GT_START_BYTES=2.10GiB): the phases would not reproduce the published experiment. ' +
        'Set ALLOW_SMALL_THRESHOLDS=1 to run with small thresholds anyway (e.g. against a scaled emulator)',
    );
  }
  if (!(c.ltStartBytes < c.ltCapBytes))
    throw new EnvError('LT_CAP_BYTES', `must be above LT_START_BYTES (${formatBytes(c.ltStartBytes)})`);
  if (!(c.ltCapBytes < c.gtStartBytes))
    throw new EnvError('GT_START_BYTES', `must be above LT_CAP_BYTES (${formatBytes(c.ltCapBytes)})`);
  if (c.seedRows > c.maxTotalRows)
    throw new EnvError('SEED_ROWS', `${c.seedRows} is above MAX_TOTAL_ROWS=${c.maxTotalRows}`);
  const batchBytes = c.writeBatchRows * rowBytes(c.dims);
  const window = c.ltCapBytes - c.ltStartBytes;
  if (batchBytes * 4 > window)
    throw new EnvError(
      'WRITE_BATCH_ROWS',
      `${c.writeBatchRows} rows (${formatBytes(batchBytes)}) is too coarse to hold the backlog inside ` +
        `[LT_START_BYTES, LT_CAP_BYTES] (${formatBytes(window)} wide): use at most ` +
        `${Math.max(1, Math.floor(window / 4 / rowBytes(c.dims)))} rows`,
    );
  const writable = (c.maxTotalRows - c.seedRows) * rowBytes(c.dims);
  if (writable < c.gtStartBytes)
    throw new EnvError(
      'MAX_TOTAL_ROWS',
      `${c.maxTotalRows} rows leave ${formatBytes(writable)} for writes after SEED_ROWS=${c.seedRows}, ` +
        `less than GT_START_BYTES=${formatBytes(c.gtStartBytes)}: the above-limit phase could never be reached`,
    );
}

function envName(key: keyof typeof REAL_SERVICE_THRESHOLDS): string {
  return { ltStartBytes: 'LT_START_BYTES', ltCapBytes: 'LT_CAP_BYTES', gtStartBytes: 'GT_START_BYTES' }[key];
}
