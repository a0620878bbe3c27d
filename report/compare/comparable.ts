// What `bench compare` compares, read the same way from any experiment's result (or its published figures): per
// cell, the client percentiles with whatever the result keeps to judge a change, the request and error counts and
// the success QPS. Each experiment says how its result becomes cells (lib/<name>/comparable.ts).
import type { ComparableCell } from '../../lib/experiment';
import type { KnownResult } from '../result-report';

export { type ComparableCell, PERCENTILES, type Percentile } from '../../lib/experiment';

export function comparableCells(r: KnownResult): ComparableCell[] {
  return r.definition.comparableCells(r.result);
}
