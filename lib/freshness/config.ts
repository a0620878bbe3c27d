// Experiment 3's knobs: the target's two backlog limits (the eventual tail and the unindexed-data limit) that place
// the bands, the probes (rate, rows, poll interval, timeout), the bulk writers and the sampled queries; every
// refusal names its variable before anything is written. Pure: `readFreshnessConfig(__ENV)`.
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
export interface FreshnessConfig {
  target: Target;
  namespace: string | undefined;
  /** Rows written and indexed before the idle band. @default 100000 */
  seedRows: number;
  /** Ceiling on rows ever written by the bulk writers (seed included). @default 1500000 */
  maxTotalRows: number;
  /** Unindexed bytes an eventual query searches at most (the service: 128 MiB). */
  tailLimitBytes: number;
  /** Unindexed bytes above which writes get 429 and strong queries are refused (the service: 2 GiB). */
  backlogLimitBytes: number;
  allowSmallLimits: boolean;
  /** Measured seconds per band, after a warm-up. @default 60, 10 */
  bandDurationS: number;
  bandWarmupS: number;
  phaseTimeoutS: number;
  /** Probes written per second; rows per probe; how often a probe is read; how long it is read at most. */
  probeRate: number;
  probeRows: number;
  probeIntervalMs: number;
  probeTimeoutS: number;
  /** The sampled query stream (latency and recall@10 per band and consistency). */
  load: QueryLoad;
  topK: number;
  dims: number;
  seed: number | undefined;
  writers: number;
  /** Rows per bulk write, at most; a band whose window is narrower gets smaller batches (./bands.ts). */
  writeBatchRows: number;
  seedBatchRows: number;
  setupTimeoutS: number;
  cleanup: boolean;
  resultsDir: string;
}

const SERVICE_LIMITS = { tailLimitBytes: 128 * 2 ** 20, backlogLimitBytes: 2 * 2 ** 30 } as const;

/** The sampled queries: three per iteration (ANN strong, ANN eventual, exact kNN as the truth), 2 a second. */
const LOAD_DEFAULTS = { rate: 2, workers: 2 };

export const FRESHNESS_KNOBS = {
  ...TARGET_KNOBS,
  NAMESPACE: knob('bench-freshness-<timestamp>', 'namespace to create (an existing one is refused)', (e) =>
    readNamespace(e),
  ),
  SEED_ROWS: knob('100000', 'rows written and indexed in setup, before the idle band', (e, n) =>
    e.int(n, 100_000, { min: 1 }),
  ),
  MAX_TOTAL_ROWS: knob('1500000', 'ceiling on rows the bulk writers write (seed included)', (e, n) =>
    e.int(n, 1_500_000, { min: 1 }),
  ),
  TAIL_LIMIT_BYTES: knob(
    '128MiB',
    "the target's eventual tail: unindexed bytes an eventual query searches",
    (e, n) => e.size(n, SERVICE_LIMITS.tailLimitBytes),
  ),
  BACKLOG_LIMIT_BYTES: knob(
    '2GiB',
    "the target's unindexed-data limit (writes 429, strong queries refused)",
    (e, n) => e.size(n, SERVICE_LIMITS.backlogLimitBytes),
  ),
  ALLOW_SMALL_LIMITS: knob('0', "1 allows limits below the service's (a scaled emulator)", (e, n) =>
    e.bool(n, false),
  ),
  BAND_DURATION_S: knob('60', 'measured seconds per band', (e, n) => e.int(n, 60, { min: 1, max: 3600 })),
  BAND_WARMUP_S: knob('10', 'unmeasured seconds at the start of each band', (e, n) =>
    e.int(n, 10, { min: 0, max: 600 }),
  ),
  PHASE_TIMEOUT_S: knob('900', "longest wait for a band's backlog gate before the band is given up", (e, n) =>
    e.int(n, 900, { min: 1 }),
  ),
  PROBE_RATE: knob('1', 'probes written per second (each then read until seen)', (e, n) =>
    e.number(n, 1, { min: 0.01, max: 50 }),
  ),
  PROBE_ROWS: knob('3', 'rows per probe: unique ids, vectors close to one unique centre', (e, n) =>
    e.int(n, 3, { min: 1, max: 10 }),
  ),
  PROBE_INTERVAL_MS: knob(
    '250',
    'a probe is read every this many ms until seen: the lag resolution',
    (e, n) => e.int(n, 250, { min: 20, max: 60_000 }),
  ),
  PROBE_TIMEOUT_S: knob('300', 'a probe not seen this long after its ack counts as never seen', (e, n) =>
    e.int(n, 300, { min: 1, max: 3600 }),
  ),
  ...queryLoadKnobs(LOAD_DEFAULTS),
  WRITERS: knob('4', 'bulk writer VUs that hold each band', (e, n) => e.int(n, 4, { min: 1, max: 256 })),
  WRITE_BATCH_ROWS: knob('2000', 'rows per bulk write at most (a quarter of a band window at most)', (e, n) =>
    e.int(n, 2000, { min: 1, max: 100_000 }),
  ),
  ...SEEDING_KNOBS,
  ...RUN_KNOBS,
  ...LAUNCHER_KNOBS,
  ...META_KNOBS,
};

export function readFreshnessConfig(env: EnvRecord): FreshnessConfig {
  checkKnobNames(FRESHNESS_KNOBS, env, 'build/freshness.js');
  const e = new EnvReader(env);
  const k = readKnobs(FRESHNESS_KNOBS, e);
  const config: FreshnessConfig = {
    target: readTarget(e),
    namespace: k.NAMESPACE,
    seedRows: k.SEED_ROWS,
    maxTotalRows: k.MAX_TOTAL_ROWS,
    tailLimitBytes: k.TAIL_LIMIT_BYTES,
    backlogLimitBytes: k.BACKLOG_LIMIT_BYTES,
    allowSmallLimits: k.ALLOW_SMALL_LIMITS,
    bandDurationS: k.BAND_DURATION_S,
    bandWarmupS: k.BAND_WARMUP_S,
    phaseTimeoutS: k.PHASE_TIMEOUT_S,
    probeRate: k.PROBE_RATE,
    probeRows: k.PROBE_ROWS,
    probeIntervalMs: k.PROBE_INTERVAL_MS,
    probeTimeoutS: k.PROBE_TIMEOUT_S,
    load: resolveQueryLoad(k, LOAD_DEFAULTS),
    topK: k.TOP_K,
    dims: k.DIMS,
    seed: k.SEED,
    writers: k.WRITERS,
    writeBatchRows: k.WRITE_BATCH_ROWS,
    seedBatchRows: k.SEED_BATCH_ROWS,
    setupTimeoutS: k.SETUP_TIMEOUT_S,
    cleanup: k.CLEANUP,
    resultsDir: k.RESULTS_DIR,
  };
  checkConsistency(config);
  return config;
}

function checkConsistency(c: FreshnessConfig): void {
  const small =
    c.tailLimitBytes < SERVICE_LIMITS.tailLimitBytes ||
    c.backlogLimitBytes < SERVICE_LIMITS.backlogLimitBytes;
  if (small && !c.allowSmallLimits)
    throw new EnvError(
      c.tailLimitBytes < SERVICE_LIMITS.tailLimitBytes ? 'TAIL_LIMIT_BYTES' : 'BACKLOG_LIMIT_BYTES',
      `TAIL_LIMIT_BYTES=${formatBytes(c.tailLimitBytes)}, BACKLOG_LIMIT_BYTES=${formatBytes(c.backlogLimitBytes)} ` +
        "is below the service's 128 MiB and 2 GiB: the bands would not be the service's. Set ALLOW_SMALL_LIMITS=1 " +
        'to run with small limits anyway (against an emulator started with the same --eventual-tail-limit and ' +
        '--backlog-limit)',
    );
  if (c.backlogLimitBytes < 4 * c.tailLimitBytes)
    throw new EnvError(
      'BACKLOG_LIMIT_BYTES',
      `must be at least 4 x TAIL_LIMIT_BYTES (${formatBytes(4 * c.tailLimitBytes)}): the band between the tail ` +
        'and the limit needs room',
    );
  if (c.seedRows > c.maxTotalRows)
    throw new EnvError('SEED_ROWS', `${c.seedRows} is above MAX_TOTAL_ROWS=${c.maxTotalRows}`);
  const writable = (c.maxTotalRows - c.seedRows) * rowBytes(c.dims);
  if (writable < 1.2 * c.backlogLimitBytes)
    throw new EnvError(
      'MAX_TOTAL_ROWS',
      `${c.maxTotalRows} rows leave ${formatBytes(writable)} for writes after SEED_ROWS=${c.seedRows}, less than ` +
        `1.2 x BACKLOG_LIMIT_BYTES: the band above the limit could never be reached`,
    );
  if (c.probeTimeoutS * 1000 < 2 * c.probeIntervalMs)
    throw new EnvError(
      'PROBE_TIMEOUT_S',
      `must allow at least two reads of PROBE_INTERVAL_MS=${c.probeIntervalMs}`,
    );
}
