// The top-k experiment's result JSON: the run record every experiment has, then one cell per top_k. Pure.
import { queryLoadRecord } from '../../common-knobs';
import type { EmulatorInfo } from '../../emulator-info';
import { type QueryFigures, readQueryCell } from '../../results/query-cell-figures';
import { type RunRecord, runRecordFields } from '../../results/run-record';
import { runStatus } from '../../results/run-status';
import { runOutcome, type SummaryData } from '../../results/summary-data';
import type { IndexedSnapshot } from '../../seeding';
import type { Versions } from '../../versions';
import type { TopKConfig } from '../config';
import { cellKeys } from '../metric-keys';
import { plannedEndMs, windows } from '../schedule';

export interface TopKCell extends QueryFigures {
  top_k: number;
  consistency: string;
  /** Successful queries per measured second. */
  qps: number;
}

export interface TopKResult extends RunRecord {
  experiment: 'top-k';
  namespace: string;
  /** Rows the namespace held, all indexed, when the first window started. */
  rows: number;
  indexed: { time: string; approx_row_count: number | null };
  cells: TopKCell[];
}

/** What setup() and handleSummary know beyond the summary metrics. */
export interface RunInfo {
  namespace: string;
  seed: number;
  startedAtMs: number;
  scenariosStartMs: number;
  finishedAtMs: number;
  indexed: IndexedSnapshot;
  emulator: EmulatorInfo | null;
  versions: Versions;
}

function configKnobs(c: TopKConfig, seed: number): TopKResult['config'] {
  return {
    TURBOPUFFER_BASE_URL: c.target.baseUrl,
    NAMESPACE: c.namespace ?? null,
    ROWS: c.rows,
    TOP_KS: c.topKs.join(','),
    CONSISTENCY: c.consistency,
    QUERY_DURATION_S: c.queryDurationS,
    QUERY_WARMUP_S: c.queryWarmupS,
    ...queryLoadRecord(c.load),
    DIMS: c.dims,
    SEED: seed,
    SEED_BATCH_ROWS: c.seedBatchRows,
    SETUP_TIMEOUT_S: c.setupTimeoutS,
    CLEANUP: c.cleanup,
    RESULTS_DIR: c.resultsDir,
  };
}

export function buildTopKResult(data: SummaryData, config: TopKConfig, run: RunInfo): TopKResult {
  const plan = windows(config);
  const plannedEnd = run.scenariosStartMs + plannedEndMs(plan);
  const reached = plan.filter((w) => run.scenariosStartMs + w.startMs <= run.finishedAtMs).pop();
  const status = runStatus(
    run.finishedAtMs,
    plannedEnd,
    reached ? `in the top_k ${reached.topK} window` : 'before the first window',
  );
  const cells = config.topKs.map((topK): TopKCell => {
    const { trend: _, ...figures } = readQueryCell(data, cellKeys(topK));
    return {
      top_k: topK,
      consistency: config.consistency,
      qps: (figures.requests - figures.errors) / config.queryDurationS,
      ...figures,
    };
  });
  return {
    experiment: 'top-k',
    namespace: run.namespace,
    ...runRecordFields({ ...run, status, target: config.target, config: configKnobs(config, run.seed) }),
    rows: config.rows,
    indexed: {
      time: new Date(run.indexed.timeMs).toISOString(),
      approx_row_count: run.indexed.approxRowCount,
    },
    cells,
    ...runOutcome(data, status.status === 'aborted'),
  };
}
