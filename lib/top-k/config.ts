// The top-k experiment's knobs: which top_k values to sweep, at which consistency, over how many rows, and the
// query load; every refusal names its variable before anything is written. Pure: `readTopKConfig(__ENV)`.
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
import type { Consistency } from '../turbopuffer-wire';

/** Every knob of the experiment, resolved. Serialised as `config` in the result JSON. */
export interface TopKConfig {
  target: Target;
  /** Namespace to create; undefined = `bench-top-k-<timestamp>` chosen in setup(). */
  namespace: string | undefined;
  /** Rows written and indexed before the first cell. @default 100000 */
  rows: number;
  /** The top_k of each cell, ascending. @default 1,10,100,1000 */
  topKs: number[];
  /** @default strong */
  consistency: Consistency;
  /** Measured seconds per cell, after a warm-up. @default 30, 5 */
  queryDurationS: number;
  queryWarmupS: number;
  load: QueryLoad;
  dims: number;
  /** Seed of every vector; undefined = drawn in setup() and printed. */
  seed: number | undefined;
  seedBatchRows: number;
  setupTimeoutS: number;
  cleanup: boolean;
  resultsDir: string;
}

const LOAD_DEFAULTS = { rate: 20, workers: 4 };

/** TOP_KS: distinct whole numbers from 1 to turbopuffer's 10,000, ascending (docs/turbopuffer-api.md §3.1). */
function readTopKs(e: EnvReader, name: string): number[] {
  const text = e.string(name, '1,10,100,1000');
  const values = text.split(',').map((part) => part.trim());
  if (values.some((v) => !/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 10000))
    throw new EnvError(name, `"${text}" is not a list of whole numbers from 1 to 10000, such as 1,10,100`);
  const sorted = [...new Set(values.map(Number))].sort((a, b) => a - b);
  if (sorted.length !== values.length) throw new EnvError(name, `"${text}" names a value twice`);
  return sorted;
}

// RUN_KNOBS' TOP_K is the one value the other experiments query with; this one sweeps TOP_KS instead.
const { TOP_K: _sweptInstead, ...runKnobs } = RUN_KNOBS;

/** Every knob of the experiment: name, default, meaning and parser (`-e HELP=1` prints this table). */
export const TOP_K_KNOBS = {
  ...TARGET_KNOBS,
  NAMESPACE: knob('bench-top-k-<timestamp>', 'namespace to create (an existing one is refused)', (e) =>
    readNamespace(e),
  ),
  ROWS: knob('100000', 'rows written and indexed in setup, before the first cell', (e, n) =>
    e.int(n, 100_000, { min: 1, max: 10_000_000 }),
  ),
  TOP_KS: knob('1,10,100,1000', 'the top_k of each cell (one cell per value)', (e, n) => readTopKs(e, n)),
  CONSISTENCY: knob('strong', 'consistency of every query: strong or eventual', (e, n) =>
    e.oneOf<Consistency>(n, ['strong', 'eventual'], 'strong'),
  ),
  QUERY_DURATION_S: knob('30', 'measured seconds per cell', (e, n) => e.int(n, 30, { min: 1, max: 3600 })),
  QUERY_WARMUP_S: knob('5', 'unmeasured seconds before each cell', (e, n) =>
    e.int(n, 5, { min: 0, max: 600 }),
  ),
  ...queryLoadKnobs(LOAD_DEFAULTS),
  ...SEEDING_KNOBS,
  ...runKnobs,
  ...LAUNCHER_KNOBS,
  ...META_KNOBS,
};

export function readTopKConfig(env: EnvRecord): TopKConfig {
  checkKnobNames(TOP_K_KNOBS, env, 'build/top-k.js');
  const e = new EnvReader(env);
  const k = readKnobs(TOP_K_KNOBS, e);
  const config: TopKConfig = {
    target: readTarget(e),
    namespace: k.NAMESPACE,
    rows: k.ROWS,
    topKs: k.TOP_KS,
    consistency: k.CONSISTENCY,
    queryDurationS: k.QUERY_DURATION_S,
    queryWarmupS: k.QUERY_WARMUP_S,
    load: resolveQueryLoad(k, LOAD_DEFAULTS),
    dims: k.DIMS,
    seed: k.SEED,
    seedBatchRows: k.SEED_BATCH_ROWS,
    setupTimeoutS: k.SETUP_TIMEOUT_S,
    cleanup: k.CLEANUP,
    resultsDir: k.RESULTS_DIR,
  };
  const largest = config.topKs[config.topKs.length - 1];
  if (largest > config.rows)
    throw new EnvError(
      'TOP_KS',
      `top_k ${largest} is more than ROWS=${config.rows}: a query cannot return it`,
    );
  return config;
}
