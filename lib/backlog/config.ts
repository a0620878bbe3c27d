// Experiment 1's knobs: names and defaults of the published harness, the target (read as every experiment reads it,
// lib/common-knobs.ts) and the refusal rules, all checked before anything is written. Pure: `readBacklogConfig(__ENV)`.
import {
  checkQueryMaxVus,
  readCleanup,
  readDims,
  readNamespace,
  readQueryMaxVus,
  readQueryVus,
  readResultsDir,
  readSeed,
  readTarget,
  readTopK,
  type Target,
} from '../common-knobs';
import { EnvError, EnvReader, type EnvRecord } from '../env';
import { formatBytes } from '../sizes';
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
  /** Queries started per second (open model). @default 100 */
  queryRate: number;
  /** @default 10 */
  topK: number;
  /** @default 768 */
  dims: number;
  /** Seed of every random vector; undefined = drawn in setup() and printed. */
  seed: number | undefined;
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
  /** VUs the query scenario pre-allocates and may grow to. @default QUERY_RATE (one second of headroom), both */
  queryVus: number;
  queryMaxVus: number;
  /** setup() may take this long (seeding and waiting for the index). @default 1800 */
  setupTimeoutS: number;
  /** Where handleSummary writes `<namespace>-<timestamp>.md|.json`. @default results */
  resultsDir: string;
}

export const REAL_SERVICE_THRESHOLDS = {
  ltStartBytes: 512 * 2 ** 20,
  ltCapBytes: Math.floor(1.75 * 2 ** 30),
  gtStartBytes: Math.floor(2.1 * 2 ** 30),
} as const;

export function readBacklogConfig(env: EnvRecord): BacklogConfig {
  const e = new EnvReader(env);
  const target = readTarget(e);
  const dims = readDims(e);
  const queryRate = e.number('QUERY_RATE', 100, { min: 0.1, max: 100000 });
  // Small windows (scaled runs) need finer writes: by default a batch is at most a quarter of the window.
  const window =
    e.size('LT_CAP_BYTES', REAL_SERVICE_THRESHOLDS.ltCapBytes) -
    e.size('LT_START_BYTES', REAL_SERVICE_THRESHOLDS.ltStartBytes);
  const defaultBatch = Math.max(1, Math.min(2000, Math.floor(window / 4 / rowBytes(dims))));
  // QUERY_MAX_VUS defaults to QUERY_VUS, so all are pre-allocated: a VU created mid-run has not watched the phase
  // gates open, so it may count its samples only in part of a cell (./phases.ts).
  const queryVus = readQueryVus(e, queryRate);
  const config: BacklogConfig = {
    target,
    namespace: readNamespace(e),
    seedRows: e.int('SEED_ROWS', 100000, { min: 1 }),
    maxTotalRows: e.int('MAX_TOTAL_ROWS', 1500000, { min: 1 }),
    queryDurationS: e.int('QUERY_DURATION_S', 60, { min: 1 }),
    queryWarmupS: e.int('QUERY_WARMUP_S', 10, { min: 0 }),
    ltStartBytes: e.size('LT_START_BYTES', REAL_SERVICE_THRESHOLDS.ltStartBytes),
    ltCapBytes: e.size('LT_CAP_BYTES', REAL_SERVICE_THRESHOLDS.ltCapBytes),
    gtStartBytes: e.size('GT_START_BYTES', REAL_SERVICE_THRESHOLDS.gtStartBytes),
    allowSmallThresholds: e.bool('ALLOW_SMALL_THRESHOLDS', false),
    cleanup: readCleanup(e),
    queryRate,
    topK: readTopK(e),
    dims,
    seed: readSeed(e),
    writers: e.int('WRITERS', 4, { min: 1, max: 256 }),
    writeBatchRows: e.int('WRITE_BATCH_ROWS', defaultBatch, { min: 1 }),
    seedBatchRows: e.int('SEED_BATCH_ROWS', 1000, { min: 1 }),
    phaseTimeoutS: e.int('PHASE_TIMEOUT_S', 900, { min: 1 }),
    queryVus,
    queryMaxVus: readQueryMaxVus(e, queryVus),
    setupTimeoutS: e.int('SETUP_TIMEOUT_S', 1800, { min: 10 }),
    resultsDir: readResultsDir(e),
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
  checkQueryMaxVus(c);
}

function envName(key: keyof typeof REAL_SERVICE_THRESHOLDS): string {
  return { ltStartBytes: 'LT_START_BYTES', ltCapBytes: 'LT_CAP_BYTES', gtStartBytes: 'GT_START_BYTES' }[key];
}
