// recall@k of an approximate answer against the exact one: the share of the exact top-k ids the answer returned.
// Pure; experiments 1 and 3 score their ANN queries with it against an exact kNN query of the same vector.

/** 1 when the exact answer is empty (nothing to find, nothing missed). */
export function recallAtK(answer: readonly (number | string)[], exact: readonly (number | string)[]): number {
  if (exact.length === 0) return 1;
  const got = new Set(answer);
  return exact.filter((id) => got.has(id)).length / exact.length;
}
