// Shared-memory layouts between the main thread and the VU threads, so the per-iteration path needs no message:
// VUs claim iterations (shared-iterations, arrival-rate starts) and report progress with atomics on these words.
//
//   VU signal (Int32Array, one per VU)        scenario block (Int32Array, one per scenario run)
//   [0] WAKE       sync-call wake word         [0] STOP        1: regular end reached, start no iteration
//   [1] INTERRUPT  non-0: current iteration    [1] NEXT_ITER   next iteration number; arrival-rate VUs claim
//                  must stop (sleep/http                       start n and wait for its intended time
//                  throw; setup: why, once)
//   [2] STOP_NEW   1: finish the current       [2] DROPPED     arrival starts no VU was free for
//                  iteration, then leave       [5] COMPLETED   [6] INTERRUPTED   [7] BUSY (VUs inside an iteration)
//                                              [8] VUS (VUs in the scenario)     [9] PENDING (VUs asked for)
//                                              [10] STARTED (arrival-rate iterations started: their numbers)
//
//   instance block (Int32Array): [0] COMPLETED [1] INTERRUPTED [2] VUS_ACTIVE [3] VUS_INITIALIZED
import { INTERRUPT_STOP, SIGNAL_INTERRUPT, SIGNAL_WAKE } from './modules/module-host';

export { SIGNAL_INTERRUPT, SIGNAL_WAKE };
export const SIGNAL_STOP_NEW = 2;
export const SIGNAL_WORDS = 4;

/** Interrupts a realm: its blocking waits (sleep, sync HTTP) wake and its next call throws; `why` is for setup(). */
export function raiseInterrupt(signal: Int32Array, why = INTERRUPT_STOP): void {
  Atomics.store(signal, SIGNAL_INTERRUPT, why);
  Atomics.store(signal, SIGNAL_WAKE, 1);
  Atomics.notify(signal, SIGNAL_WAKE);
}

export const SC_STOP = 0;
export const SC_NEXT_ITER = 1;
export const SC_DROPPED = 2;
export const SC_COMPLETED = 5;
export const SC_INTERRUPTED = 6;
export const SC_BUSY = 7;
export const SC_VUS = 8;
export const SC_PENDING = 9;
export const SC_STARTED = 10;
export const SCENARIO_WORDS = 12;

export const IN_COMPLETED = 0;
export const IN_INTERRUPTED = 1;
export const IN_VUS_ACTIVE = 2;
export const IN_VUS_INITIALIZED = 3;
export const INSTANCE_WORDS = 4;

export function newInt32Block(words: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(words * 4));
}

/** Epoch milliseconds with sub-millisecond precision; consistent across threads of one process. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
