// Experiment 2's per-configuration result JSON: a stable shape the report step (scripts/filter-cost-report.ts)
// and jq recipes rely on. Pure.

import { type RunRecord, targetRecord } from '../../results/run-record';
import { runOutcome, type SummaryData } from '../../results/summary-data';
import type { Versions } from '../../versions';
import { attributeColumn, valueBytes } from '../attribute-values';
import type { CellPlan } from '../cells';
import { ATTRIBUTE_NAME, type AttributeKind, configKnobs, type FilterCostConfig } from '../config';
import type { DrainStats, IngestStats, SetupData, StorageStats } from '../setup-data';
import { buildFilterCostCells, type FilterCostCell } from './cells';

/**
 * Keys in this order: experiment, configuration, namespace, started_at, finished_at, target, attribute, config,
 * versions, ingest, drain, storage, cells, unreachable, dropped_iterations, thresholds.
 */
export interface FilterCostResult extends RunRecord {
  experiment: 'filter-cost';
  /** The configuration's label: `none`, `int-100`, `string-unique-unfiltered`, ... */
  configuration: string;
  attribute: {
    name: string | null;
    type: Exclude<AttributeKind, 'none'> | null;
    cardinality: number | null;
    filterable: boolean | null;
    /** Logical bytes of one value (8 for int; strings are 8 characters up to 10^7 values). */
    value_bytes: number | null;
  };
  ingest: IngestStats & {
    /** Acknowledged rows per second with requests in flight (busy_s). */
    rows_per_s: number | null;
    /** Request JSON megabytes (10^6) per busy second. */
    request_mb_per_s: number | null;
    /** Billable logical megabytes written per busy second. */
    billable_mb_per_s: number | null;
  };
  drain: DrainStats;
  storage: StorageStats & { bytes_per_row: number | null };
  cells: FilterCostCell[];
  /** Sweep points the cardinality cannot hit exactly. */
  unreachable: CellPlan['unreachable'];
}

export interface FilterCostRunInfo {
  setup: SetupData;
  finishedAtMs: number;
  versions: Versions;
}

const perSecond = (amount: number, seconds: number) => (seconds > 0 ? amount / seconds : null);

export function buildFilterCostResult(
  data: SummaryData,
  c: FilterCostConfig,
  plan: CellPlan,
  run: FilterCostRunInfo,
): FilterCostResult {
  const { setup } = run;
  const outcome = runOutcome(data);
  const hasAttribute = c.attribute !== 'none';
  const { approx_logical_bytes: bytes, approx_row_count: rows } = setup.storage;
  return {
    experiment: 'filter-cost',
    configuration: c.label,
    namespace: setup.namespace,
    started_at: new Date(setup.startedAtMs).toISOString(),
    finished_at: new Date(run.finishedAtMs).toISOString(),
    target: targetRecord(c.target),
    attribute: {
      name: hasAttribute ? ATTRIBUTE_NAME : null,
      type: c.attribute === 'none' ? null : c.attribute,
      cardinality: hasAttribute ? c.cardinality : null,
      filterable: hasAttribute ? c.filterable : null,
      value_bytes:
        c.attribute === 'none' ? null : valueBytes(attributeColumn(c.attribute, c.rows, c.cardinality, 0)),
    },
    config: configKnobs(c, setup.seed),
    versions: run.versions,
    ingest: {
      ...setup.ingest,
      rows_per_s: perSecond(setup.ingest.rows, setup.ingest.busy_s),
      request_mb_per_s: perSecond(setup.ingest.request_bytes / 1e6, setup.ingest.busy_s),
      billable_mb_per_s: perSecond(setup.ingest.billable_bytes_written / 1e6, setup.ingest.busy_s),
    },
    drain: setup.drain,
    storage: { ...setup.storage, bytes_per_row: bytes !== null && rows ? bytes / rows : null },
    cells: buildFilterCostCells(data, plan.cells, setup.recall, c.queryDurationS),
    unreachable: plan.unreachable,
    dropped_iterations: outcome.dropped_iterations,
    thresholds: outcome.thresholds,
  };
}
