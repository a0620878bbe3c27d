// The part of k6's handleSummary `data` the result builders read (docs/k6-behaviour.md §7.5), and the readers both
// experiments apply to it: one statistic of one metric, and the run's threshold outcome. Pure.

export interface SummaryData {
  metrics: Record<string, SummaryMetric>;
  setup_data?: unknown;
}

export interface SummaryMetric {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains?: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

/** The trend statistics both experiments ask k6 to summarise (`summaryTrendStats`): the result builders read them. */
export const SUMMARY_TREND_STATS: readonly string[] = ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)', 'count'];

export interface FailedThreshold {
  metric: string;
  expression: string;
}

/** What every result records about its thresholds: dropped iterations and the expressions that failed. */
export interface RunOutcome {
  dropped_iterations: number;
  /**
   * `evaluated` is false for an aborted run (lib/results/run-status.ts): its thresholds judged only part of the run,
   * so `passed` is null and `failed` empty.
   */
  thresholds: { evaluated: boolean; passed: boolean | null; failed: FailedThreshold[] };
}

/** One statistic (`count`, `med`, `p(95)`, `value`...) of a metric or sub-metric; null when absent or NaN. */
export function metricValue(data: SummaryData, key: string, stat: string): number | null {
  const v = data.metrics[key]?.values[stat];
  return v === undefined || Number.isNaN(v) ? null : v;
}

/** Every threshold expression that failed, in summary order. */
export function failedThresholds(data: SummaryData): FailedThreshold[] {
  const failed: FailedThreshold[] = [];
  for (const [metric, m] of Object.entries(data.metrics)) {
    for (const [expression, result] of Object.entries(m.thresholds ?? {})) {
      if (!result.ok) failed.push({ metric, expression });
    }
  }
  return failed;
}

export function runOutcome(data: SummaryData, aborted = false): RunOutcome {
  const dropped_iterations = data.metrics.dropped_iterations?.values.count ?? 0;
  if (aborted) return { dropped_iterations, thresholds: { evaluated: false, passed: null, failed: [] } };
  const failed = failedThresholds(data);
  return { dropped_iterations, thresholds: { evaluated: true, passed: failed.length === 0, failed } };
}
