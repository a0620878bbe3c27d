// The arrival-rate pacer: one thread per arrival-rate scenario that sleeps until each intended start time and
// releases a ticket to an idle VU through the scenario block, or counts the start as dropped (and asks for one
// more VU while below maxVUs). It only touches shared memory on the hot path; drops are reported every 100 ms.
import { parentPort, workerData } from 'node:worker_threads';
import { nowMs, SC_IDLE, SC_PENDING, SC_RELEASED, SC_STOP, SC_VUS } from '../control-block';
import { arrivalStarts } from '../executors/arrival-schedule';
import type { ConstantArrivalRateConfig } from '../executors/constant-arrival-rate';
import type { RampingArrivalRateConfig } from '../executors/ramping-arrival-rate';

export interface PacerData {
  config: ConstantArrivalRateConfig | RampingArrivalRateConfig;
  block: Int32Array;
  ring: Float64Array;
  /** Epoch ms of the scenario start. */
  start: number;
}

export interface PacerReport {
  type: 'report';
  dropped: number;
  grow: number;
  time: number;
  done: boolean;
}

const { config, block, ring, start } = workerData as PacerData;
const mask = ring.length - 1;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
let dropped = 0;
let grow = 0;
let lastReport = nowMs();

function report(done: boolean): void {
  if (dropped > 0 || grow > 0 || done) {
    const message: PacerReport = { type: 'report', dropped, grow, time: nowMs(), done };
    parentPort?.postMessage(message);
    dropped = 0;
    grow = 0;
  }
  lastReport = nowMs();
}

for (const offset of arrivalStarts(config)) {
  const due = start + offset;
  for (;;) {
    if (Atomics.load(block, SC_STOP) !== 0) break;
    const wait = due - nowMs();
    if (wait <= 0) break;
    if (nowMs() - lastReport >= 100) report(false);
    // Wake at least every 100 ms to report drops and notice a stop.
    Atomics.wait(sleeper, 0, 0, Math.min(wait, 100));
  }
  if (Atomics.load(block, SC_STOP) !== 0) break;
  if (Atomics.load(block, SC_IDLE) > 0) {
    Atomics.sub(block, SC_IDLE, 1);
    const ticket = Atomics.load(block, SC_RELEASED);
    ring[ticket & mask] = due;
    Atomics.add(block, SC_RELEASED, 1);
    Atomics.notify(block, SC_RELEASED, 1);
  } else {
    dropped++;
    if (Atomics.load(block, SC_VUS) + Atomics.load(block, SC_PENDING) < config.maxVUs) {
      Atomics.add(block, SC_PENDING, 1);
      grow++;
    }
  }
  if (nowMs() - lastReport >= 100) report(false);
}
report(true);
