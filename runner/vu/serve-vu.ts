// What a VU does with the main thread's messages (activate, interrupt, exit), wherever it lives: alone in its
// worker thread (runner/vu.worker.ts) or beside other VUs on a host thread (runner/vu-host.worker.ts).
import { EXIT_SCRIPT_EXCEPTION } from '../../core/exit-codes';
import { HostedBlockingError } from '../modules/module-host';
import { runActivation } from './activation';
import { TestAbort } from './interruption';
import type { Realm } from './realm';
import type { PostToMain, VuRuntime } from './runtime';
import { scriptStack } from './script-stack';
import type { MainToRealm } from './wire';

/**
 * Reports errors nobody awaited (a timer callback's, a floating promise's) to the main thread through `post`: an
 * exec.test.abort() becomes the run's abort, anything else an error log line.
 */
export function reportUncaught(post: PostToMain): void {
  const report = (what: string) => (error: unknown) => {
    if (error instanceof TestAbort) post({ type: 'abort', message: error.reason });
    else
      post({
        type: 'log',
        level: 'error',
        message: `${what}: ${scriptStack(error)}`,
        fields: { source: 'stacktrace' },
      });
  };
  process.on('uncaughtException', report('uncaught exception'));
  process.on('unhandledRejection', report('unhandled promise rejection'));
}

/** Returns the VU's message handler; `exit` runs after the VU flushed its samples on an exit message. */
export function serveVu(rt: VuRuntime, realm: Realm, exit: () => void): (msg: MainToRealm) => Promise<void> {
  let gen = 0;
  return async (msg) => {
    if (msg.type === 'interrupt') {
      if (msg.gen === gen) rt.fireInterrupt();
    } else if (msg.type === 'exit') {
      rt.encoder.flush();
      exit();
    } else if (msg.type === 'activate') {
      gen = msg.gen;
      try {
        const notStarted = await runActivation(rt, realm, msg);
        rt.post({ type: 'activationDone', gen: msg.gen, notStarted });
      } catch (error) {
        rt.encoder.flush();
        if (error instanceof TestAbort) rt.post({ type: 'abort', message: error.reason });
        else if (error instanceof HostedBlockingError)
          rt.post({ type: 'abort', message: error.message, code: EXIT_SCRIPT_EXCEPTION });
        else rt.log('error', scriptStack(error), { source: 'stacktrace' });
        rt.post({ type: 'activationDone', gen: msg.gen, notStarted: 0 });
      }
    }
  };
}
