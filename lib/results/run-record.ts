// The top-level fields every experiment's result JSON has (where, when, with which knobs and
// versions, and whether the thresholds held), and the text of every JSON file bench writes. Pure.
import type { Target } from '../common-knobs';
import type { Versions } from '../versions';
import type { RunOutcome } from './summary-data';

export interface RunRecord extends RunOutcome {
  started_at: string;
  finished_at: string;
  target: { kind: Target['kind']; base_url: string };
  /** Every knob under its environment variable name, as resolved (SEED included, so a rerun can reuse it). */
  config: Record<string, string | number | boolean | null>;
  versions: Versions;
}

export function targetRecord(target: Target): RunRecord['target'] {
  return { kind: target.kind, base_url: target.baseUrl };
}

/** The run record's fields in their JSON order (each experiment puts its own before and after them). */
export function runRecordFields(r: {
  startedAtMs: number;
  finishedAtMs: number;
  target: Target;
  config: RunRecord['config'];
  versions: Versions;
}): Omit<RunRecord, keyof RunOutcome> {
  return {
    started_at: new Date(r.startedAtMs).toISOString(),
    finished_at: new Date(r.finishedAtMs).toISOString(),
    target: targetRecord(r.target),
    config: r.config,
    versions: r.versions,
  };
}

/** Two-space indented and newline-terminated, so committed results diff line by line. */
export function jsonFileText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
