// What a large write does between two small steps of its work (scanning the body, decoding vectors, appending them
// to the engine): on a budget, let other requests in and let the searches already running finish first (bounded),
// so the writer's body handling does not take the request thread from the queries beside it on a 2-core machine
// (see vector/search-priority.ts for the same rule on the engine's threads).
//
// The steps are small (a few hundred rows); a turn yields only once the write has held the thread for
// WRITE_SLICE_MS since it last yielded, or at once when a search is in flight. Fixed slices of 1,024 rows had held
// the event loop for tens of milliseconds each (docs/engine-measurements.md §7.1), which a query arriving meanwhile
// waited out in full.
import { searchesActive, searchesIdle } from '../vector/index';

/** Longest a write works on the request thread before other requests get a turn. */
const WRITE_SLICE_MS = 4;

export interface TurnBudget {
  budgetMs: number;
  now: () => number;
  /** A query's search is queued or running: give way now, whatever is left of the budget. */
  searchesActive: () => boolean;
  /** Lets the others in (the event loop's other callbacks, then the searches in flight). */
  giveWay: () => Promise<void>;
}

/** A turn function that gives way once per `budgetMs` of work, or at once while searches run. */
export function budgetedTurns(b: TurnBudget): () => Promise<void> {
  let since = Number.NEGATIVE_INFINITY;
  return async () => {
    if (b.now() - since < b.budgetMs && !b.searchesActive()) return;
    await b.giveWay();
    since = b.now();
  };
}

/** The request thread's turn for writes (one budget for all writes: it is the thread's time they share). */
export const writeTurn = budgetedTurns({
  budgetMs: WRITE_SLICE_MS,
  now: () => performance.now(),
  searchesActive,
  giveWay: async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await searchesIdle();
  },
});
