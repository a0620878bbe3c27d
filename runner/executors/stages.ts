// The stages of the ramping executors: a target (VUs, or a start rate per timeUnit) reached linearly over a duration.

export interface Stage {
  /** ms */
  duration: number;
  target: number;
}

export function stagesTotal(stages: Stage[]): number {
  return stages.reduce((sum, s) => sum + s.duration, 0);
}
