// Experiment 3's result JSON, a stable shape: the run record, then per band the window and backlog, visibility per
// band, consistency and read method, the sampled queries' latency and recall, write acknowledgement latency, the
// probes' points (backlog at the ack against lag, per series bucket), the metadata series and the documented claims
// set against the measurements (./claims.ts). Pure.
import { queryLoadRecord } from '../../common-knobs';
import type { EmulatorInfo } from '../../emulator-info';
import { TICK_MS } from '../../phase-machine';
import { readQueryCell } from '../../results/query-cell-figures';
import { runRecordFields } from '../../results/run-record';
import { runStatus } from '../../results/run-status';
import { metricValue, runOutcome, type SummaryData } from '../../results/summary-data';
import type { IndexedSnapshot } from '../../seeding';
import { bucketTags, readMetadataSeries, secondsFrom, seriesClock } from '../../time-series';
import type { Versions } from '../../versions';
import {
  BANDS,
  type BandName,
  bandGates,
  bandsDurationMs,
  batchRowsByBand,
  scenariosDurationMs,
} from '../bands';
import type { FreshnessConfig } from '../config';
import { bandKeys, FRESHNESS_METRIC, pointKeys, RESULTS, WRITERS } from '../metric-keys';
import { READS, type ReadKind, readConsistency, readMethod } from '../probe';
import { documentedClaims } from './claims';
import type { BandRecord, FreshnessResult, Ms, QueryRow, VisibilityRow, WriteAckRow } from './shape';

export type { FreshnessResult } from './shape';

export interface RunInfo {
  namespace: string;
  seed: number;
  startedAtMs: number;
  finishedAtMs: number;
  t0: number;
  indexed: IndexedSnapshot;
  emulator: EmulatorInfo | null;
  versions: Versions;
}

function configKnobs(c: FreshnessConfig, seed: number): FreshnessResult['config'] {
  return {
    TURBOPUFFER_BASE_URL: c.target.baseUrl,
    NAMESPACE: c.namespace ?? null,
    SEED_ROWS: c.seedRows,
    MAX_TOTAL_ROWS: c.maxTotalRows,
    TAIL_LIMIT_BYTES: c.tailLimitBytes,
    BACKLOG_LIMIT_BYTES: c.backlogLimitBytes,
    ALLOW_SMALL_LIMITS: c.allowSmallLimits,
    BAND_DURATION_S: c.bandDurationS,
    BAND_WARMUP_S: c.bandWarmupS,
    PHASE_TIMEOUT_S: c.phaseTimeoutS,
    PROBE_RATE: c.probeRate,
    PROBE_ROWS: c.probeRows,
    PROBE_INTERVAL_MS: c.probeIntervalMs,
    PROBE_TIMEOUT_S: c.probeTimeoutS,
    ...queryLoadRecord(c.load),
    TOP_K: c.topK,
    DIMS: c.dims,
    SEED: seed,
    WRITERS: c.writers,
    WRITE_BATCH_ROWS: c.writeBatchRows,
    SEED_BATCH_ROWS: c.seedBatchRows,
    SETUP_TIMEOUT_S: c.setupTimeoutS,
    CLEANUP: c.cleanup,
    RESULTS_DIR: c.resultsDir,
  };
}

const iso = (ms: number | null) => (ms === null || ms <= 0 ? null : new Date(ms).toISOString());

export function buildFreshnessResult(
  data: SummaryData,
  config: FreshnessConfig,
  run: RunInfo,
  lagToleranceMs: number,
): FreshnessResult {
  const value = (key: string, stat: string) => metricValue(data, key, stat);
  // A trend without samples reads 0 in the summary data: unknown, not zero.
  const nonEmpty = (key: string, stat: string) => ((value(key, 'count') ?? 0) > 0 ? value(key, stat) : null);
  const gates = bandGates(config);
  const batches = batchRowsByBand(config);
  const bands = BANDS.map((band, i): BandRecord => {
    const k = bandKeys(band);
    return {
      band,
      gate: { min: gates[i].min, max: Number.isFinite(gates[i].max) ? gates[i].max : null },
      window: { start: iso(value(k.windowStart, 'value')), end: iso(value(k.windowEnd, 'value')) },
      backlog_bytes: { start: value(k.unindexed('start'), 'value'), end: value(k.unindexed('end'), 'value') },
      probes: value(k.probes, 'count') ?? 0,
      bulk_batch_rows: batches[i],
    };
  });
  const visibility = BANDS.flatMap((band) => READS.map((read) => visibilityRow(data, band, read)));
  const idleP99: Record<string, Ms> = {};
  const queries = BANDS.flatMap((band) =>
    (['strong', 'eventual'] as const).map((consistency): QueryRow => {
      const k = bandKeys(band);
      const { trend: _, ...figures } = readQueryCell(data, k.queries(consistency));
      if (band === 'idle') idleP99[consistency] = figures.client_ms.p99;
      const idle = idleP99[consistency];
      const p99 = figures.client_ms.p99;
      return {
        band,
        consistency,
        ...figures,
        recall_at_k: {
          mean: nonEmpty(k.recall(consistency), 'avg'),
          min: nonEmpty(k.recall(consistency), 'min'),
          queries: value(k.recall(consistency), 'count') ?? 0,
        },
        recent_recall: {
          mean: nonEmpty(k.recentRecall(consistency), 'avg'),
          probes: value(k.recentRecall(consistency), 'count') ?? 0,
        },
        p99_jitter: idle && p99 !== null && idle > 0 ? p99 / idle : null,
      };
    }),
  );
  const write_ack = BANDS.flatMap((band, i) =>
    WRITERS.map((writer): WriteAckRow => {
      const key = bandKeys(band).writeAck(writer);
      return {
        band,
        writer,
        rows_per_write: writer === 'bulk' ? batches[i] : config.probeRows,
        writes: value(key, 'count') ?? 0,
        ms: { p50: value(key, 'med'), p95: value(key, 'p(95)'), p99: value(key, 'p(99)') },
      };
    }),
  ).filter((row) => row.writes > 0);
  const clock = seriesClock(run.t0, scenariosDurationMs(config));
  // The scenarios start about two ticks before t0 and last the bands' bound (./bands.ts).
  const status = runStatus(
    run.finishedAtMs,
    run.t0 - 2 * TICK_MS + bandsDurationMs(config),
    'while the bands ran',
  );
  const outcome = runOutcome(data, status.status === 'aborted');
  const result: FreshnessResult = {
    experiment: 'freshness',
    namespace: run.namespace,
    ...runRecordFields({ ...run, status, target: config.target, config: configKnobs(config, run.seed) }),
    limits: {
      tail_limit_bytes: config.tailLimitBytes,
      backlog_limit_bytes: config.backlogLimitBytes,
      probe_interval_ms: config.probeIntervalMs,
      lag_tolerance_ms: lagToleranceMs,
    },
    bands,
    visibility,
    queries,
    write_ack,
    points: readPoints(data, clock),
    metadata: readMetadataSeries(data, clock),
    writes: {
      rows: value(FRESHNESS_METRIC.rowsWritten, 'count') ?? 0,
      errors: value(FRESHNESS_METRIC.writeErrors, 'count') ?? 0,
    },
    claims: [],
    ...outcome,
  };
  result.claims = documentedClaims(result);
  return result;
}

function visibilityRow(data: SummaryData, band: BandName, read: ReadKind): VisibilityRow {
  const k = bandKeys(band);
  const value = (key: string, stat: string) => metricValue(data, key, stat);
  const first = Object.fromEntries(
    RESULTS.map((result) => [result, value(k.firstRead(read, result), 'count') ?? 0]),
  ) as VisibilityRow['first_read'];
  const answered = first.seen + first.missing;
  const seen = value(k.lag(read), 'count') ?? 0;
  const lag = (stat: string) => (seen > 0 ? value(k.lag(read), stat) : null);
  const eventual = readConsistency(read) === 'eventual';
  const errors = value(k.lagError(read), 'count') ?? 0;
  return {
    band,
    consistency: readConsistency(read),
    method: readMethod(read),
    probes: RESULTS.reduce((sum, r) => sum + first[r], 0),
    first_read: first,
    seen_at_first_read: answered > 0 ? first.seen / answered : null,
    lag_ms: { p50: lag('med'), p95: lag('p(95)'), p99: lag('p(99)'), max: lag('max') },
    never_seen: value(k.neverSeen(read), 'count') ?? 0,
    partial_reads: value(k.partial(read), 'count') ?? 0,
    lag_error_ms:
      eventual && errors > 0
        ? { min: value(k.lagError(read), 'min'), max: value(k.lagError(read), 'max') }
        : null,
  };
}

function readPoints(data: SummaryData, clock: ReturnType<typeof seriesClock>): FreshnessResult['points'] {
  const out: FreshnessResult['points'] = {
    t_s: [],
    backlog_bytes: [],
    lag_ms: { strong_id: [], strong_ann: [], eventual_id: [], eventual_ann: [] },
  };
  for (const ts of bucketTags(clock)) {
    const p = pointKeys(ts);
    const backlog = metricValue(data, p.backlog, 'value');
    const lags = READS.map((read) =>
      (metricValue(data, p.lag(read), 'count') ?? 0) > 0 ? metricValue(data, p.lag(read), 'max') : null,
    );
    if (backlog === null && lags.every((l) => l === null)) continue;
    out.t_s.push(secondsFrom(clock.originMs, clock.originMs + Number(ts) * 1000));
    out.backlog_bytes.push(backlog);
    READS.forEach((read, i) => {
      out.lag_ms[read].push(lags[i]);
    });
  }
  return out;
}
