// Experiment 2's knobs as one table (name, default, meaning, parser; `-e HELP=1` prints it) and the resolved config:
// the configurations of the study, their scale, the query cells' timing and load, and the target, all checked before
// anything is written. Pure: `readFilterCostConfig(__ENV)`.
import {
  LAUNCHER_KNOBS,
  type QueryLoad,
  queryLoadKnobs,
  queryLoadRecord,
  RUN_KNOBS,
  readTarget,
  resolveQueryLoad,
  TARGET_KNOBS,
  type Target,
} from '../common-knobs';
import { EnvError, EnvReader, type EnvRecord } from '../env';
import { checkKnobNames, knob, META_KNOBS, readKnobs } from '../knobs';
import { MAX_ROWS } from './attribute-values';
import {
  type Configuration,
  isFilterable,
  PUBLISHED_CONFIGURATIONS,
  parseConfigurations,
} from './configurations';
import { formatPercentTag } from './selectivity';

/** The one attribute every configuration's rows carry (besides id and vector). */
export const ATTRIBUTE_NAME = 'attr';

/** The share of rows the headline cells' filter matches, as published. */
export const HEADLINE_SELECTIVITY = 0.01;

/** The published sweep: 0.1 % to 100 % of rows matching. */
const DEFAULT_SELECTIVITIES = '0.1,1,10,50,100';

/** The published runs used 2 query workers; bench's default is the open model. */
const LOAD_DEFAULTS = { rate: 20, workers: 2 };

/** Every knob, resolved. Serialised (under the knob names) as `config` in the result JSON. */
export interface FilterCostConfig {
  target: Target;
  /** Namespaces are `<prefix>-<configuration>`; undefined = `bench-filter-cost-<timestamp>` chosen in setup(). */
  namespacePrefix: string | undefined;
  rows: number;
  /** In run order, one fresh namespace each. */
  configurations: Configuration[];
  /** The configuration that gets the selectivity sweep (both filtered shapes); null = no sweep. */
  sweepConfiguration: string | null;
  /** Sweep points as fractions of rows matching. */
  selectivities: number[];
  /** Per window (one cell at one consistency): warm-up, measured and idle seconds. */
  queryWarmupS: number;
  queryDurationS: number;
  cellGapS: number;
  /** Unmeasured queries before the first window, while the runtime warms up. */
  jitWarmupS: number;
  load: QueryLoad;
  topK: number;
  dims: number;
  /** undefined = drawn in setup() and printed. */
  seed: number | undefined;
  writeBatchRows: number;
  writeConcurrency: number;
  /** Rows of the throwaway warm-up namespace (0 = none). */
  ingestWarmupRows: number;
  /** Metadata poll interval while ingesting and draining (the resolution of drain durations). */
  pollIntervalS: number;
  drainTimeoutS: number;
  recallQueries: number;
  setupTimeoutS: number;
  cleanup: boolean;
  resultsDir: string;
}

const seconds = (e: EnvReader, name: string, fallback: number, min: number) =>
  e.number(name, fallback, { min, max: 86_400 });

/** Every knob of experiment 2: name, default, meaning and parser. */
export const FILTER_COST_KNOBS = {
  ...TARGET_KNOBS,
  NAMESPACE_PREFIX: knob(
    'bench-filter-cost-<timestamp>',
    'namespaces are <prefix>-<configuration>; an existing one is refused',
    (e, n) => {
      const p = e.optionalString(n);
      if (p !== undefined && !/^[A-Za-z0-9._-]{1,96}$/.test(p))
        throw new EnvError(n, `"${p}" is not a namespace prefix: use 1-96 characters of A-Z a-z 0-9 - _ .`);
      return p;
    },
  ),
  ROWS: knob(
    '1000000',
    'rows per namespace (ids 0 .. ROWS-1), 768-d f32 vectors plus the attribute',
    (e, n) => e.int(n, 1_000_000, { min: 1, max: MAX_ROWS }),
  ),
  CONFIGURATIONS: knob(
    'the published 14',
    `namespaces in run order: ${PUBLISHED_CONFIGURATIONS.join(',')}`,
    (e, n) => e.string(n, PUBLISHED_CONFIGURATIONS.join(',')),
  ),
  SWEEP_CONFIGURATION: knob(
    'int-10k',
    'the configuration swept over SELECTIVITIES ("none": no sweep)',
    (e, n) => e.string(n, 'int-10k'),
  ),
  SELECTIVITIES: knob(DEFAULT_SELECTIVITIES, 'sweep points, percent of rows matching', (e, n) =>
    readSelectivities(e, n),
  ),
  QUERY_DURATION_S: knob('10', 'measured seconds per cell and consistency', (e, n) => seconds(e, n, 10, 0.1)),
  QUERY_WARMUP_S: knob('2', 'unmeasured seconds before each measured window', (e, n) => seconds(e, n, 2, 0)),
  CELL_GAP_S: knob(
    '1',
    'idle seconds after each window (its graceful stop), so windows never overlap',
    (e, n) => seconds(e, n, 1, 0.1),
  ),
  JIT_WARMUP_S: knob('5', 'unmeasured ANN queries before the first window', (e, n) => seconds(e, n, 5, 0)),
  ...queryLoadKnobs(LOAD_DEFAULTS),
  WRITE_BATCH_ROWS: knob('1000', 'rows per write request (about 4 MB of JSON at 768 dims)', (e, n) =>
    e.int(n, 1000, { min: 1, max: 100_000 }),
  ),
  INGEST_WARMUP_ROWS: knob(
    '10 x WRITE_BATCH_ROWS',
    'rows written to a throwaway namespace first (deleted at once), so the first configuration does not pay warm-up',
    (e, n) => (e.raw(n) === undefined ? undefined : e.int(n, 0, { min: 0, max: MAX_ROWS })),
  ),
  WRITE_CONCURRENCY: knob('4', 'write requests in flight at once while ingesting', (e, n) =>
    e.int(n, 4, { min: 1, max: 64 }),
  ),
  POLL_INTERVAL_S: knob(
    '0.25 (emulator), 1 (service)',
    'metadata poll interval after the last write (while ingesting: at most one poll per interval, between write ' +
      'rounds): the resolution of every drain duration',
    (e, n) => (e.raw(n) === undefined ? undefined : e.number(n, 1, { min: 0.05, max: 60 })),
  ),
  DRAIN_TIMEOUT_S: knob('1800', "longest wait for one namespace's index after its last write", (e, n) =>
    e.int(n, 1800, { min: 1 }),
  ),
  RECALL_QUERIES: knob(
    '10',
    'probes per ANN cell for recall@10 against exact kNN with the same filter; 0 = none',
    (e, n) => e.int(n, 10, { min: 0, max: 1000 }),
  ),
  SETUP_TIMEOUT_S: knob(
    '21600',
    "every namespace's ingest, drain and probes together may take this long",
    (e, n) => e.int(n, 21_600, { min: 10 }),
  ),
  ...RUN_KNOBS,
  ...LAUNCHER_KNOBS,
  ...META_KNOBS,
};

export function readFilterCostConfig(env: EnvRecord): FilterCostConfig {
  checkKnobNames(FILTER_COST_KNOBS, env, 'build/filter-cost.js');
  const e = new EnvReader(env);
  const k = readKnobs(FILTER_COST_KNOBS, e);
  const target = readTarget(e);
  const configurations = parseConfigurations(k.CONFIGURATIONS, k.ROWS);
  const config: FilterCostConfig = {
    target,
    namespacePrefix: k.NAMESPACE_PREFIX,
    rows: k.ROWS,
    configurations,
    sweepConfiguration: readSweep(k.SWEEP_CONFIGURATION, configurations),
    selectivities: k.SELECTIVITIES,
    queryWarmupS: k.QUERY_WARMUP_S,
    queryDurationS: k.QUERY_DURATION_S,
    cellGapS: k.CELL_GAP_S,
    jitWarmupS: k.JIT_WARMUP_S,
    load: resolveQueryLoad(k, LOAD_DEFAULTS),
    topK: k.TOP_K,
    dims: k.DIMS,
    seed: k.SEED,
    writeBatchRows: k.WRITE_BATCH_ROWS,
    writeConcurrency: k.WRITE_CONCURRENCY,
    ingestWarmupRows: k.INGEST_WARMUP_ROWS ?? Math.min(k.ROWS, 10 * k.WRITE_BATCH_ROWS),
    pollIntervalS: k.POLL_INTERVAL_S ?? (target.kind === 'emulator' ? 0.25 : 1),
    drainTimeoutS: k.DRAIN_TIMEOUT_S,
    recallQueries: k.RECALL_QUERIES,
    setupTimeoutS: k.SETUP_TIMEOUT_S,
    cleanup: k.CLEANUP,
    resultsDir: k.RESULTS_DIR,
  };
  // k6 refuses scenarios shorter than a second.
  if (config.queryWarmupS + config.queryDurationS < 1)
    throw new EnvError(
      'QUERY_DURATION_S',
      "with QUERY_WARMUP_S must make a window of at least 1 s (k6's shortest scenario)",
    );
  if (config.jitWarmupS > 0 && config.jitWarmupS < 1)
    throw new EnvError('JIT_WARMUP_S', "must be 0 or at least 1 s (k6's shortest scenario)");
  return config;
}

/**
 * SWEEP_CONFIGURATION must name a listed, filterable configuration. Left at its default while CONFIGURATIONS leaves
 * int-10k out, the run simply has no sweep; named explicitly, a missing configuration is an error.
 */
function readSweep(name: string, configurations: readonly Configuration[]): string | null {
  if (name === 'none') return null;
  const c = configurations.find((x) => x.name === name);
  if (!c) {
    if (name === 'int-10k') return null;
    throw new EnvError(
      'SWEEP_CONFIGURATION',
      `${name} is not in CONFIGURATIONS: use one of ${configurations.map((x) => x.name).join(', ')}, or none`,
    );
  }
  if (!isFilterable(c))
    throw new EnvError(
      'SWEEP_CONFIGURATION',
      `${name} has no filterable attribute to sweep: name another, or none`,
    );
  return name;
}

function readSelectivities(e: EnvReader, name: string): number[] {
  const items = e
    .string(name, DEFAULT_SELECTIVITIES)
    .split(',')
    .map((s) => s.trim());
  const out: number[] = [];
  for (const item of items) {
    const pct = Number(item);
    if (item === '' || !Number.isFinite(pct) || pct <= 0 || pct > 100)
      throw new EnvError(
        name,
        `"${item}" is not a percentage of rows matching in (0, 100]: use a list such as ${DEFAULT_SELECTIVITIES}`,
      );
    const fraction = pct / 100;
    if (out.some((f) => formatPercentTag(f) === formatPercentTag(fraction)))
      throw new EnvError(name, `${item} is listed twice`);
    out.push(fraction);
  }
  return out;
}

/** The knobs under their environment variable names (SEED as drawn), for the result JSON. */
export function configKnobs(
  c: FilterCostConfig,
  seed: number,
): Record<string, string | number | boolean | null> {
  return {
    TURBOPUFFER_BASE_URL: c.target.baseUrl,
    NAMESPACE_PREFIX: c.namespacePrefix ?? null,
    ROWS: c.rows,
    CONFIGURATIONS: c.configurations.map((x) => x.name).join(','),
    SWEEP_CONFIGURATION: c.sweepConfiguration ?? 'none',
    SELECTIVITIES: c.selectivities.map(formatPercentTag).join(','),
    QUERY_DURATION_S: c.queryDurationS,
    QUERY_WARMUP_S: c.queryWarmupS,
    CELL_GAP_S: c.cellGapS,
    JIT_WARMUP_S: c.jitWarmupS,
    ...queryLoadRecord(c.load),
    TOP_K: c.topK,
    DIMS: c.dims,
    SEED: seed,
    WRITE_BATCH_ROWS: c.writeBatchRows,
    WRITE_CONCURRENCY: c.writeConcurrency,
    INGEST_WARMUP_ROWS: c.ingestWarmupRows,
    POLL_INTERVAL_S: c.pollIntervalS,
    DRAIN_TIMEOUT_S: c.drainTimeoutS,
    RECALL_QUERIES: c.recallQueries,
    SETUP_TIMEOUT_S: c.setupTimeoutS,
    CLEANUP: c.cleanup,
    RESULTS_DIR: c.resultsDir,
  };
}
