// One iteration of an exec function: runs it, waits until its event loop is empty (async functions, tracked
// promises, timers), and emits k6's per-iteration samples (data_sent, data_received, iteration_duration,
// iterations). Sync iterations finish without yielding to the event loop, which keeps the hot path short.
import { IN_COMPLETED, IN_INTERRUPTED, nowMs, SC_COMPLETED, SC_INTERRUPTED } from '../control-block';
import { HostedBlockingError } from '../modules/module-host';
import { IterationInterrupted, TestAbort } from './interruption';
import type { VuRuntime } from './runtime';
import { scriptStack } from './script-stack';

export type Outcome = 'completed' | 'interrupted';

export interface IterationContext {
  fn: (data: unknown) => unknown;
  data: unknown;
  block: Int32Array | undefined;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';
}

/** Logs a script exception the way k6 does (level error, source=stacktrace) and returns "completed". */
function outcomeOf(rt: VuRuntime, error: unknown): Outcome {
  if (error instanceof IterationInterrupted) return 'interrupted';
  // A blocking call on a shared thread is the script's incompatibility with --vu-threads: the run stops (107).
  if (error instanceof TestAbort || error instanceof HostedBlockingError) throw error;
  if (rt.interrupted()) return 'interrupted';
  const text = scriptStack(error);
  const fields: Record<string, string> = { source: 'stacktrace' };
  if (rt.scenario) {
    fields.executor = rt.scenario.executor;
    fields.scenario = rt.scenario.name;
  }
  rt.log('error', text, fields);
  return 'completed';
}

/** Pads a completed iteration to minIterationDuration, then records it. */
function finish(
  rt: VuRuntime,
  ctx: IterationContext,
  start: number,
  outcome: Outcome,
): Outcome | Promise<Outcome> {
  const min = rt.data.minIterationDuration;
  const pad = min - (nowMs() - start);
  if (outcome !== 'completed' || min <= 0 || pad <= 0) return record(rt, ctx, start, outcome);
  if (rt.hosted) {
    // A thread other VUs share waits without blocking; an interruption ends the padding (waitFor never settles then).
    let done: () => void = () => {};
    const interrupted = new Promise<void>((resolve) => {
      done = rt.onInterrupt(() => resolve()) as () => void;
    });
    return Promise.race([rt.waitFor(pad), interrupted]).then(() => {
      done();
      return record(rt, ctx, start, outcome);
    });
  }
  try {
    rt.blockFor(pad);
  } catch {
    // An interruption during the padding sleep still leaves a completed iteration.
  }
  return record(rt, ctx, start, outcome);
}

function record(rt: VuRuntime, ctx: IterationContext, start: number, outcome: Outcome): Outcome {
  const end = nowMs();
  rt.iterationEnded();
  rt.lastIterationEnd = end;
  const tags = rt.tags();
  const metadata = rt.metadata();
  const [sent, received] = rt.takeData();
  const samples = [
    { metric: 'data_sent', time: end, value: sent, tags, metadata },
    { metric: 'data_received', time: end, value: received, tags, metadata },
  ];
  if (outcome === 'completed') {
    samples.push({ metric: 'iteration_duration', time: end, value: end - start, tags, metadata });
    samples.push({ metric: 'iterations', time: end, value: 1, tags, metadata });
  }
  rt.emit(samples);
  const instance = rt.data.instance;
  if (outcome === 'completed') {
    Atomics.add(instance, IN_COMPLETED, 1);
    if (ctx.block) Atomics.add(ctx.block, SC_COMPLETED, 1);
  } else {
    Atomics.add(instance, IN_INTERRUPTED, 1);
    if (ctx.block) Atomics.add(ctx.block, SC_INTERRUPTED, 1);
  }
  rt.flushIfStale();
  return outcome;
}

async function settle(
  rt: VuRuntime,
  ctx: IterationContext,
  start: number,
  result: unknown,
): Promise<Outcome> {
  let off: (() => void) | undefined;
  const interrupted = new Promise<Outcome>((resolve) => {
    off = rt.onInterrupt(() => resolve('interrupted'));
  });
  let outcome: Outcome;
  try {
    const done = Promise.resolve(result)
      .then(() => rt.whenDrained())
      .then((): Outcome => 'completed');
    outcome = rt.interrupted() ? 'interrupted' : await Promise.race([done, interrupted]);
  } catch (error) {
    outcome = outcomeOf(rt, error);
  } finally {
    off?.();
  }
  if (outcome === 'interrupted') rt.resetPending();
  return finish(rt, ctx, start, outcome);
}

/** Runs one iteration; returns synchronously when the function was sync and left no pending work. */
export function runIteration(rt: VuRuntime, ctx: IterationContext): Outcome | Promise<Outcome> {
  rt.iteration++;
  rt.iterationInScenario++;
  // The VU's tag set survives iterations (exec.vu.metrics.tags persist): it is rebuilt only when the group changes.
  if (rt.group !== '') {
    rt.group = '';
    rt.invalidateTags();
  }
  rt.iterationStarted();
  const start = nowMs();
  let result: unknown;
  try {
    result = ctx.fn(ctx.data);
  } catch (error) {
    return finish(rt, ctx, start, outcomeOf(rt, error));
  }
  if (isThenable(result) || rt.pendingWork > 0) return settle(rt, ctx, start, result);
  return finish(rt, ctx, start, 'completed');
}
