// Aggregated values -> pass or fail for threshold expressions (pure). k6's edge rules: an empty trend reads 0,
// an empty counter counts 0, and a rate that cannot be computed (NaN) passes.
import type { Operator, ThresholdExpression } from './parse';

function compare(left: number, op: Operator, right: number): boolean {
  switch (op) {
    case '<=':
      return left <= right;
    case '<':
      return left < right;
    case '>=':
      return left >= right;
    case '>':
      return left > right;
    case '===':
    case '==':
      return left === right;
    case '!=':
      return left !== right;
  }
}

/** `value` is the aggregation the expression names (p(N) already resolved); NaN means "cannot be computed". */
export function passes(expr: Pick<ThresholdExpression, 'operator' | 'value'>, value: number): boolean {
  if (Number.isNaN(value)) return true;
  return compare(value, expr.operator, expr.value);
}

/** True when a failing expression must stop the run now (abortOnFail and past its delayAbortEval). */
export function shouldAbort(expr: ThresholdExpression, ok: boolean, elapsedMs: number): boolean {
  return !ok && expr.abortOnFail && (expr.delayAbortEval === 0 || elapsedMs > expr.delayAbortEval);
}
