// The top-level fields every experiment's result JSON has (where, when, with which knobs and
// versions, and whether the thresholds held), and the text of every JSON file bench writes. Pure.
import type { Target } from '../common-knobs';
import type { EmulatorInfo } from '../emulator-info';
import type { Versions } from '../versions';
import type { RunStatus } from './run-status';
import type { RunOutcome } from './summary-data';

export interface RunRecord extends RunOutcome, RunStatus {
  started_at: string;
  finished_at: string;
  /** `emulator`: what the emulator reported about itself (version, settings, flags); null for the real service. */
  target: { kind: Target['kind']; base_url: string; emulator: EmulatorInfo | null };
  /** Every knob under its environment variable name, as resolved (SEED included, so a rerun can reuse it). */
  config: Record<string, string | number | boolean | null>;
  versions: Versions;
}

function targetRecord(target: Target, emulator: EmulatorInfo | null): RunRecord['target'] {
  return { kind: target.kind, base_url: target.baseUrl, emulator };
}

/** The run record's fields in their JSON order (each experiment puts its own before and after them). */
export function runRecordFields(r: {
  status: RunStatus;
  startedAtMs: number;
  finishedAtMs: number;
  target: Target;
  emulator: EmulatorInfo | null;
  config: RunRecord['config'];
  versions: Versions;
}): Omit<RunRecord, keyof RunOutcome> {
  return {
    status: r.status.status,
    status_reason: r.status.status_reason,
    started_at: new Date(r.startedAtMs).toISOString(),
    finished_at: new Date(r.finishedAtMs).toISOString(),
    target: targetRecord(r.target, r.emulator),
    config: r.config,
    versions: r.versions,
  };
}

/** Two-space indented and newline-terminated, so committed results diff line by line. */
export function jsonFileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
