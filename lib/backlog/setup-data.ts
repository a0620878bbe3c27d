// What setup() hands every VU, teardown() and handleSummary() (JSON, copied into each VU: keep it small).
export interface SetupData {
  namespace: string;
  /** Seed of every vector of the run (drawn in setup() unless SEED was given). */
  seed: number;
  /** Start of the idle phase's cells: a wall-clock grid tick shortly after setup() returned (epoch ms). */
  t0: number;
  startedAtMs: number;
  /** The namespace when this run created it (only then may CLEANUP delete it). */
  created: string[];
  setupSnapshot: { timeMs: number; unindexedBytes: number; approxRowCount: number | null } | null;
}
