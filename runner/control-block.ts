// Shared-memory layouts between the main thread, the arrival-rate pacers and the VU threads, so the per-iteration
// path needs no message: VUs claim iterations and report progress with atomics on these words.
//
//   VU signal (Int32Array, one per VU)        scenario block (Int32Array, one per scenario run)
//   [0] WAKE       sync-call wake word         [0] STOP        1: regular end reached, start no iteration
//   [1] INTERRUPT  1: current iteration must   [1] NEXT_ITER   next iteration number (shared-iterations claims)
//                  stop (sleep/http throw)     [2] RELEASED    arrival tickets released by the pacer
//   [2] STOP_NEW   1: finish the current       [3] CLAIMED     arrival tickets claimed by VUs
//                  iteration, then leave       [4] IDLE        VUs waiting for a ticket (only the pacer decrements)
//                                              [5] COMPLETED   [6] INTERRUPTED   [7] BUSY (VUs inside an iteration)
//                                              [8] VUS (VUs in the scenario)     [9] PENDING (VUs being initialised)
//
//   instance block (Int32Array): [0] COMPLETED [1] INTERRUPTED [2] VUS_ACTIVE [3] VUS_INITIALIZED
//   ring (Float64Array): intended start time (epoch ms) of arrival ticket t at [t & (size − 1)]
import { SIGNAL_INTERRUPT, SIGNAL_WAKE } from './modules/module-host';

export { SIGNAL_INTERRUPT, SIGNAL_WAKE };
export const SIGNAL_STOP_NEW = 2;
export const SIGNAL_WORDS = 4;

export const SC_STOP = 0;
export const SC_NEXT_ITER = 1;
export const SC_RELEASED = 2;
export const SC_CLAIMED = 3;
export const SC_IDLE = 4;
export const SC_COMPLETED = 5;
export const SC_INTERRUPTED = 6;
export const SC_BUSY = 7;
export const SC_VUS = 8;
export const SC_PENDING = 9;
export const SCENARIO_WORDS = 12;

export const IN_COMPLETED = 0;
export const IN_INTERRUPTED = 1;
export const IN_VUS_ACTIVE = 2;
export const IN_VUS_INITIALIZED = 3;
export const INSTANCE_WORDS = 4;

export function newInt32Block(words: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(words * 4));
}

/** Ring of intended start times, sized to a power of two above the most tickets that can be outstanding. */
export function newRing(maxVUs: number): Float64Array {
  let size = 64;
  while (size < maxVUs * 2) size *= 2;
  return new Float64Array(new SharedArrayBuffer(size * 8));
}

/** Epoch milliseconds with sub-millisecond precision; consistent across threads of one process. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
