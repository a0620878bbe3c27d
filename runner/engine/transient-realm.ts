// init #0, setup, teardown and handleSummary each run in a fresh realm with __VU = 0; this runs one such realm
// to its single reply, under a timeout.
import type { TransferListItem } from 'node:worker_threads';
import { newInt32Block, raiseInterrupt, SIGNAL_WORDS } from '../control-block';
import { INTERRUPT_SETUP_TIMEOUT, INTERRUPT_STOP } from '../modules/module-host';
import type { RealmData, RealmMode, RealmToMain } from '../vu/wire';
import { type RealmEvents, RealmHandle, workerLink } from './realm-handle';

export type TransientReply =
  | Extract<RealmToMain, { type: 'init0' } | { type: 'result' } | { type: 'initError' }>
  | { type: 'timeout' }
  | { type: 'aborted'; message: string };

/** How long a setup() that ran past its timeout may take to undo what it made before its thread is stopped. */
const CLEANUP_GRACE_MS = 30_000;

export async function runTransientRealm(
  mode: Exclude<RealmMode, 'vu'>,
  template: Omit<RealmData, 'mode' | 'vuId' | 'signal'>,
  events: RealmEvents,
  timeoutMs: number,
  /**
   * setup() only: when it settles, and when the timeout expires, the realm's next sleep or HTTP call throws
   * (runner/vu/interruption.ts); after a timeout the realm gets CLEANUP_GRACE_MS to finish its error handling.
   */
  interrupt?: Promise<unknown>,
): Promise<TransientReply> {
  const signal = newInt32Block(SIGNAL_WORDS);
  void interrupt?.then(() => raiseInterrupt(signal, INTERRUPT_STOP));
  const transfer: TransferListItem[] = template.httpPort ? [template.httpPort] : [];
  let abortMessage: string | undefined;
  let abortNow: (() => void) | undefined;
  const realm = new RealmHandle(mode, workerLink({ ...template, mode, vuId: 0, signal }, transfer), {
    ...events,
    onAbort: (message) => {
      abortMessage = message;
      abortNow?.();
    },
  });
  let timer: NodeJS.Timeout | undefined;
  const replied = realm
    .next('init0', 'result', 'initError')
    .catch((e: Error): TransientReply => ({ type: 'result', ok: false, message: e.message }));
  let pastTimeout = false;
  const timedOut = async (): Promise<TransientReply> => {
    pastTimeout = true;
    if (interrupt) {
      raiseInterrupt(signal, INTERRUPT_SETUP_TIMEOUT);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        replied,
        new Promise((resolve) => (grace = setTimeout(resolve, CLEANUP_GRACE_MS))),
      ]);
      clearTimeout(grace);
    }
    return { type: 'timeout' };
  };
  try {
    const reply = await Promise.race([
      // A reply during the grace (setup() failing with the interruption) still means the timeout.
      replied.then((r) => (pastTimeout ? ({ type: 'timeout' } as const) : r)),
      new Promise<TransientReply>((resolve) => {
        timer = setTimeout(() => resolve(timedOut()), timeoutMs);
      }),
      new Promise<TransientReply>((resolve) => {
        abortNow = () => resolve({ type: 'aborted', message: abortMessage ?? '' });
      }),
    ]);
    return reply as TransientReply;
  } finally {
    if (timer) clearTimeout(timer);
    // Samples posted just before the reply are already routed (same port, in order); now the thread can go.
    await realm.terminate();
  }
}
