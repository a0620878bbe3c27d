// What setup() hands every VU, teardown() and handleSummary() (JSON, copied into each VU: keep it small).
import type { EmulatorInfo } from '../emulator-info';
import type { IndexedSnapshot } from '../seeding';

export interface SetupData {
  namespace: string;
  seed: number;
  /** Start of the idle band: a wall-clock grid tick shortly after setup() returned (epoch ms). */
  t0: number;
  startedAtMs: number;
  created: string[];
  emulator: EmulatorInfo | null;
  indexed: IndexedSnapshot;
}
