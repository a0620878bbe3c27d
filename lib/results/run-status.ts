// Whether a run ran to its end: k6 calls handleSummary after an interrupted run too (Ctrl+C, SIGTERM, test.abort(),
// an abortOnFail threshold) and tells it nothing about why, so each experiment compares the finish time with the
// planned end of its scenarios, which its knobs fix. An aborted run's figures cover only what ran and its
// thresholds are not evaluated. Pure.

export interface RunStatus {
  status: 'complete' | 'aborted';
  /** Why the run is aborted and where it stopped; null when complete. */
  status_reason: string | null;
}

const COMPLETE: RunStatus = { status: 'complete', status_reason: null };

/**
 * `plannedEndMs` is the earliest moment the scenarios can all have ended (epoch ms); `where` names the part of the
 * run that was going on at `finishedAtMs` ("during the idle, strong cell").
 */
export function runStatus(finishedAtMs: number, plannedEndMs: number, where: string): RunStatus {
  if (finishedAtMs >= plannedEndMs) return COMPLETE;
  return {
    status: 'aborted',
    status_reason:
      `interrupted ${formatSeconds((plannedEndMs - finishedAtMs) / 1000)} before the scenarios' planned end, ${where} ` +
      '(Ctrl+C, a signal, test.abort() or an abortOnFail threshold)',
  };
}

/** "45 s", "3 min 04 s", "2 h 05 min". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}
