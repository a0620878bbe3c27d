// recall@k of an approximate answer against the exact one, and its summary over several probes. Pure.

type Id = number | string;

/**
 * Share of the exact answer's ids that the approximate answer also returned: |found ∩ truth| / |truth|. Null when
 * the exact answer is empty (nothing to recall). Ties at the k-th distance can make two correct answers differ;
 * with continuous random vectors such ties do not occur in practice.
 */
export function recallAt(found: readonly Id[], truth: readonly Id[]): number | null {
  if (truth.length === 0) return null;
  const wanted = new Set(truth);
  let hits = 0;
  for (const id of new Set(found)) if (wanted.has(id)) hits++;
  return hits / truth.length;
}

export interface RecallSummary {
  queries: number;
  mean: number | null;
  min: number | null;
}

export function summarizeRecall(values: readonly number[]): RecallSummary {
  if (values.length === 0) return { queries: 0, mean: null, min: null };
  return {
    queries: values.length,
    mean: values.reduce((a, b) => a + b, 0) / values.length,
    min: Math.min(...values),
  };
}
