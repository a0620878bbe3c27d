// What setup() hands every VU, teardown() and handleSummary() (JSON, copied into each VU: keep it small).
import type { EmulatorInfo } from '../emulator-info';

export interface SetupData {
  namespace: string;
  /** Seed of every vector of the run (drawn in setup() unless SEED was given). */
  seed: number;
  /** Start of the idle phase's cells: a wall-clock grid tick shortly after setup() returned (epoch ms). */
  t0: number;
  startedAtMs: number;
  /** The namespace when this run created it (only then may CLEANUP delete it). */
  created: string[];
  /** What the emulator said about itself (lib/emulator-info.ts); null for the real service. */
  emulator: EmulatorInfo | null;
  setupSnapshot: { timeMs: number; unindexedBytes: number; approxRowCount: number | null } | null;
}
