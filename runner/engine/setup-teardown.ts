// setup() and teardown() stages: each in a fresh realm (__VU = 0) with its own HTTP port, under its timeout; the
// outcome says what the run does next and which exit code (if any) the stage caused.
import {
  EXIT_SCRIPT_ABORTED,
  EXIT_SCRIPT_EXCEPTION,
  EXIT_SETUP_TIMEOUT,
  EXIT_TEARDOWN_TIMEOUT,
} from '../../core/exit-codes';
import type { HttpIoPool } from '../http/io-pool';
import type { RealmData } from '../vu/wire';
import type { RealmEvents } from './realm-handle';
import { runTransientRealm } from './transient-realm';

export type StageOutcome =
  | { ok: true; data: string | undefined }
  | { ok: false; exitCode: number; message: string; aborted: boolean };

type Template = Omit<RealmData, 'mode' | 'vuId' | 'signal' | 'httpPort'>;

function seconds(ms: number): string {
  return String(ms / 1000);
}

/**
 * Runs setup(); `data` is its result as JSON (undefined when it returned nothing). Once `interrupt` settles, setup()'s
 * next sleep or HTTP call throws, once: it can catch that and undo what it made.
 */
export async function runSetup(
  template: Template,
  http: HttpIoPool,
  events: RealmEvents,
  timeoutMs: number,
  interrupt?: Promise<unknown>,
): Promise<StageOutcome> {
  const reply = await runTransientRealm(
    'setup',
    { ...template, httpPort: http.connectVu(0) },
    events,
    timeoutMs,
    interrupt,
  );
  switch (reply.type) {
    case 'timeout':
      return {
        ok: false,
        exitCode: EXIT_SETUP_TIMEOUT,
        message: `setup() execution timed out after ${seconds(timeoutMs)} seconds (hint: increase setupTimeout in the options)`,
        aborted: false,
      };
    case 'aborted':
      return {
        ok: false,
        exitCode: EXIT_SCRIPT_ABORTED,
        message: `test aborted${reply.message ? `: ${reply.message}` : ''}`,
        aborted: true,
      };
    case 'result':
      return reply.ok
        ? { ok: true, data: reply.value }
        : { ok: false, exitCode: EXIT_SCRIPT_EXCEPTION, message: reply.message, aborted: false };
    default:
      return {
        ok: false,
        exitCode: EXIT_SCRIPT_EXCEPTION,
        message: reply.type === 'initError' ? reply.message : 'setup() realm ended unexpectedly',
        aborted: false,
      };
  }
}

/** Runs teardown(data); it ignores exec.test.abort() (the run is ending anyway). */
export async function runTeardown(
  template: Template,
  http: HttpIoPool,
  events: RealmEvents,
  timeoutMs: number,
  setupData: string | undefined,
): Promise<StageOutcome> {
  const reply = await runTransientRealm(
    'teardown',
    { ...template, httpPort: http.connectVu(0), argument: setupData },
    { ...events, onAbort: () => {} },
    timeoutMs,
  );
  if (reply.type === 'timeout')
    return {
      ok: false,
      exitCode: EXIT_TEARDOWN_TIMEOUT,
      message: `teardown() execution timed out after ${seconds(timeoutMs)} seconds`,
      aborted: false,
    };
  if (reply.type === 'result' && !reply.ok)
    return { ok: false, exitCode: EXIT_SCRIPT_EXCEPTION, message: reply.message, aborted: false };
  if (reply.type === 'initError')
    return { ok: false, exitCode: EXIT_SCRIPT_EXCEPTION, message: reply.message, aborted: false };
  return { ok: true, data: undefined };
}
