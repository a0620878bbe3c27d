// Experiment 2's knobs: one namespace configuration (attribute type, cardinality, filterable or not, or no
// attribute at all), its scale, the query cells' timing and the target, all checked before anything is written.
// Pure: `readFilterCostConfig(__ENV)`.

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
import { MAX_ROWS } from './attribute-values';
import { formatPercentTag } from './selectivity';

export type AttributeKind = 'none' | 'int' | 'string';
export type ConsistencyLevel = 'eventual' | 'strong';

/** The one attribute every row carries (besides id and vector). */
export const ATTRIBUTE_NAME = 'attr';

/** Every knob, resolved. Serialised as `config` in the result JSON. */
export interface FilterCostConfig {
  target: Target;
  /** Namespace to create; undefined = `bench-filter-cost-<label>-<timestamp>` chosen in setup(). */
  namespace: string | undefined;
  /** The configuration's name in results and tags: `none`, `int-100`, `string-unique`, `int-unique-unfiltered`. */
  label: string;
  /** Rows written (ids 0 .. ROWS - 1). @default 1000000 */
  rows: number;
  /** Type of the attribute, or `none` for the baseline without one. @default int */
  attribute: AttributeKind;
  /** Distinct values of the attribute (CARDINALITY, a number or `unique` = ROWS). @default 100 */
  cardinality: number;
  /** Declared `filterable`; false is the baseline turbopuffer bills 50% less for. @default true */
  filterable: boolean;
  /** Selectivity sweep as fractions of rows matching (SELECTIVITIES in percent). @default 0.1,1,10,50,100 % */
  selectivities: number[];
  /** Queries started per second in every cell (open model). @default 10 */
  queryRate: number;
  /** Measured seconds per cell, after QUERY_WARMUP_S unmeasured ones. @default 30, 5 */
  queryDurationS: number;
  queryWarmupS: number;
  /** Idle seconds after each cell (its graceful stop), so cells never overlap. @default 2 */
  cellGapS: number;
  /** Unmeasured ANN queries before the first cell, while the query VUs warm up. @default 5 */
  jitWarmupS: number;
  /** @default eventual: the namespace is fully indexed, so eventual reads see every row without the strong floor */
  consistency: ConsistencyLevel;
  /** @default 10 */
  topK: number;
  /** @default 768 */
  dims: number;
  /** Seed of vectors and attribute values; undefined = drawn in setup() and printed. */
  seed: number | undefined;
  /** Rows per write request while ingesting. @default 1000 (about 4 MB of JSON at 768 dims) */
  writeBatchRows: number;
  /** Write requests in flight at once while ingesting (http.batch). @default 4 */
  writeConcurrency: number;
  /** Query vectors per cell for recall@TOP_K against exact kNN with the same filter; 0 = none. @default 10 */
  recallQueries: number;
  /** VUs of each cell's arrival-rate scenario. @default max(2, QUERY_RATE), both */
  queryVus: number;
  queryMaxVus: number;
  /** setup() (ingest, drain, recall probes) may take this long. @default 7200 */
  setupTimeoutS: number;
  /** Delete the namespace at the end (also after a failed setup) when this run created it. @default true */
  cleanup: boolean;
  /** Where handleSummary writes `<namespace>-<timestamp>.md|.json`. @default results */
  resultsDir: string;
}

/** The published sweep: 0.1 % to 100 % of rows matching. */
const DEFAULT_SELECTIVITIES = '0.1,1,10,50,100';

export function readFilterCostConfig(env: EnvRecord): FilterCostConfig {
  const e = new EnvReader(env);
  const rows = e.int('ROWS', 1_000_000, { min: 1, max: MAX_ROWS });
  const attribute = e.oneOf<AttributeKind>('ATTRIBUTE', ['none', 'int', 'string'], 'int');
  if (attribute === 'none')
    for (const name of ['CARDINALITY', 'FILTERABLE'])
      if (e.raw(name) !== undefined)
        throw new EnvError(
          name,
          'has no effect with ATTRIBUTE=none (the baseline without an attribute): unset it',
        );
  const cardinality = readCardinality(e, rows);
  const filterable = e.bool('FILTERABLE', true);
  const queryRate = e.number('QUERY_RATE', 10, { min: 0.1, max: 10000 });
  const queryVus = readQueryVus(e, queryRate);
  const config: FilterCostConfig = {
    target: readTarget(e),
    namespace: readNamespace(e),
    label: configLabel(attribute, cardinality, rows, filterable),
    rows,
    attribute,
    cardinality,
    filterable,
    selectivities: readSelectivities(e),
    queryRate,
    queryDurationS: e.int('QUERY_DURATION_S', 30, { min: 1 }),
    queryWarmupS: e.int('QUERY_WARMUP_S', 5, { min: 0 }),
    cellGapS: e.int('CELL_GAP_S', 2, { min: 0 }),
    jitWarmupS: e.int('JIT_WARMUP_S', 5, { min: 0 }),
    consistency: e.oneOf<ConsistencyLevel>('CONSISTENCY', ['eventual', 'strong'], 'eventual'),
    topK: readTopK(e),
    dims: readDims(e),
    seed: readSeed(e),
    writeBatchRows: e.int('WRITE_BATCH_ROWS', 1000, { min: 1, max: 100_000 }),
    writeConcurrency: e.int('WRITE_CONCURRENCY', 4, { min: 1, max: 64 }),
    recallQueries: e.int('RECALL_QUERIES', 10, { min: 0, max: 1000 }),
    queryVus,
    queryMaxVus: readQueryMaxVus(e, queryVus),
    setupTimeoutS: e.int('SETUP_TIMEOUT_S', 7200, { min: 10 }),
    cleanup: readCleanup(e),
    resultsDir: readResultsDir(e),
  };
  checkQueryMaxVus(config);
  return config;
}

function readCardinality(e: EnvReader, rows: number): number {
  const text = e.raw('CARDINALITY');
  if (text === 'unique') return rows;
  const value = e.int('CARDINALITY', Math.min(100, rows), { min: 1 });
  if (value > rows)
    throw new EnvError(
      'CARDINALITY',
      `${value} distinct values cannot fit in ROWS=${rows}: use at most ${rows}, or "unique"`,
    );
  return value;
}

function readSelectivities(e: EnvReader): number[] {
  const text = e.string('SELECTIVITIES', DEFAULT_SELECTIVITIES);
  const items = text.split(',').map((s) => s.trim());
  const out: number[] = [];
  for (const item of items) {
    const pct = Number(item);
    if (item === '' || !Number.isFinite(pct) || pct <= 0 || pct > 100)
      throw new EnvError(
        'SELECTIVITIES',
        `"${item}" is not a percentage of rows matching in (0, 100]: use a list such as ${DEFAULT_SELECTIVITIES}`,
      );
    const fraction = pct / 100;
    if (out.some((f) => formatPercentTag(f) === formatPercentTag(fraction)))
      throw new EnvError('SELECTIVITIES', `${item} is listed twice`);
    out.push(fraction);
  }
  return out;
}

/** `none`, `int-2`, `string-10k`, `int-unique`, `string-unique-unfiltered`. */
export function configLabel(
  attribute: AttributeKind,
  cardinality: number,
  rows: number,
  filterable: boolean,
): string {
  if (attribute === 'none') return 'none';
  const card = cardinality === rows && rows > 1 ? 'unique' : formatCount(cardinality);
  return `${attribute}-${card}${filterable ? '' : '-unfiltered'}`;
}

/** 2 -> "2", 10000 -> "10k", 100000 -> "100k", 2500000 -> "2.5M", 12345 -> "12345". */
export function formatCount(n: number): string {
  if (n >= 1_000_000 && n % 100_000 === 0) return `${n / 1_000_000}M`;
  if (n >= 1000 && n % 1000 === 0) return `${n / 1000}k`;
  return String(n);
}

/** True when the namespace has an attribute queries can filter on (the filtered cells exist only then). */
export function hasFilterableAttribute(c: FilterCostConfig): boolean {
  return c.attribute !== 'none' && c.filterable;
}

/** The knobs under their environment variable names (SEED as drawn), for the result JSON. */
export function configKnobs(
  c: FilterCostConfig,
  seed: number,
): Record<string, string | number | boolean | null> {
  return {
    TURBOPUFFER_BASE_URL: c.target.baseUrl,
    NAMESPACE: c.namespace ?? null,
    ROWS: c.rows,
    ATTRIBUTE: c.attribute,
    CARDINALITY: c.attribute === 'none' ? null : c.cardinality,
    FILTERABLE: c.attribute === 'none' ? null : c.filterable,
    SELECTIVITIES: c.selectivities.map(formatPercentTag).join(','),
    QUERY_RATE: c.queryRate,
    QUERY_DURATION_S: c.queryDurationS,
    QUERY_WARMUP_S: c.queryWarmupS,
    CELL_GAP_S: c.cellGapS,
    JIT_WARMUP_S: c.jitWarmupS,
    CONSISTENCY: c.consistency,
    TOP_K: c.topK,
    DIMS: c.dims,
    SEED: seed,
    WRITE_BATCH_ROWS: c.writeBatchRows,
    WRITE_CONCURRENCY: c.writeConcurrency,
    RECALL_QUERIES: c.recallQueries,
    QUERY_VUS: c.queryVus,
    QUERY_MAX_VUS: c.queryMaxVus,
    SETUP_TIMEOUT_S: c.setupTimeoutS,
    CLEANUP: c.cleanup,
    RESULTS_DIR: c.resultsDir,
  };
}
