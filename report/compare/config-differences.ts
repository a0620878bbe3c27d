// The knobs two results were run with, side by side: compare lines up cells by name, so a 32-d smoke run against a
// 768-d local profile compares "the same" cells of different workloads. Knobs that differ between any two runs by
// design (the emulator's port, the seed, where results go, timestamped names) are left out. Pure.

/** Knobs expected to differ between otherwise identical runs. */
const PER_RUN = new Set(['TURBOPUFFER_BASE_URL', 'SEED', 'RESULTS_DIR', 'NAMESPACE', 'NAMESPACE_PREFIX']);

function show(x: unknown): string {
  if (x === undefined) return 'unset';
  return typeof x === 'string' ? x : JSON.stringify(x);
}

/** `KNOB a → b` for each knob whose recorded value differs, in A's order then B's extra knobs. */
export function configDifferences(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !PER_RUN.has(k));
  return keys
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k} ${show(a[k])} → ${show(b[k])}`);
}
