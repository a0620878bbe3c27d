// What setup() hands every VU and handleSummary: JSON, as k6 passes it.
import type { EmulatorInfo } from '../emulator-info';
import type { IndexedSnapshot } from '../seeding';

export interface SetupData {
  namespace: string;
  seed: number;
  startedAtMs: number;
  /** The namespaces teardown() deletes with CLEANUP=1 (lib/namespace-lifecycle.ts). */
  created: string[];
  /** When setup() returned: the schedule's origin. */
  scenariosStartMs: number;
  emulator: EmulatorInfo | null;
  indexed: IndexedSnapshot;
}
