// Write backpressure: above the unindexed-bytes limit, writes get 429 until indexing catches up, unless the client
// set disable_backpressure on a write it applies to (upserts and deletes by id; never patches, filter writes or
// conditional writes, which need a consistent read). Strong queries are refused above the same limit.
import { tooManyRequests } from '../api-error';
import type { WriteRequest } from '../wire/write-request';

export interface BacklogState {
  unindexedBytes: number;
  limitBytes: number;
  /** Indexing pace in bytes/s (Infinity when unlimited): turns the excess into a retry hint. */
  indexBytesPerSecond: number;
}

/** How long until indexing brings the backlog under the limit, clamped to 100 ms .. 10 s. */
function retryAfterMs(state: BacklogState): number {
  const excess = state.unindexedBytes - state.limitBytes;
  const ms = Number.isFinite(state.indexBytesPerSecond) ? (excess / state.indexBytesPerSecond) * 1000 : 100;
  return Math.min(10_000, Math.max(100, Math.ceil(ms)));
}

/** True when disable_backpressure applies to this write. */
function backpressureExempt(req: WriteRequest): boolean {
  return (
    req.disableBackpressure &&
    req.patches.length === 0 &&
    req.deleteByFilter === undefined &&
    req.patchByFilter === null &&
    req.upsertCondition === undefined &&
    req.patchCondition === undefined &&
    req.deleteCondition === undefined
  );
}

/** Throws 429 when the backlog is over the limit and the write may not bypass it. */
export function checkWriteBackpressure(req: WriteRequest, state: BacklogState): void {
  if (state.unindexedBytes <= state.limitBytes || backpressureExempt(req)) return;
  throw tooManyRequests(
    `write rejected: ${state.unindexedBytes} unindexed bytes exceed the backlog limit of ${state.limitBytes}; ` +
      'retry after indexing catches up, or set disable_backpressure for upserts and deletes',
    retryAfterMs(state),
  );
}

/** Throws 429 when a strong query would have to scan more than the backlog limit. */
export function checkStrongQuery(state: BacklogState): void {
  if (state.unindexedBytes <= state.limitBytes) return;
  throw tooManyRequests(
    `strong query rejected: ${state.unindexedBytes} unindexed bytes exceed the backlog limit of ${state.limitBytes}; ` +
      'use consistency {"level": "eventual"} or retry after indexing catches up',
    retryAfterMs(state),
  );
}
