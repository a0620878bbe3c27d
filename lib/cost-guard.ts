// The real service bills every run: both experiments refuse it unless TPUF_BENCH_CONFIRM_COST=1, naming what the run
// would write and query (each experiment's plan text). Pure.
import type { Target } from './common-knobs';
import { EnvError, EnvReader, type EnvRecord } from './env';

/** Throws (naming TPUF_BENCH_CONFIRM_COST and the plan) unless the target is free or the cost was confirmed. */
export function assertConfirmed(env: EnvRecord, target: Target, planText: string): void {
  if (target.kind !== 'turbopuffer') return;
  if (new EnvReader(env).bool('TPUF_BENCH_CONFIRM_COST', false)) return;
  throw new EnvError(
    'TPUF_BENCH_CONFIRM_COST',
    `the target is the real turbopuffer service, which bills writes, storage and queries. ${planText}. ` +
      'Set TPUF_BENCH_CONFIRM_COST=1 to accept, or unset TURBOPUFFER_API_KEY to run against the local emulator',
  );
}
