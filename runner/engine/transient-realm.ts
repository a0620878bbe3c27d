// init #0, setup, teardown and handleSummary each run in a fresh realm with __VU = 0; this runs one such realm
// to its single reply, under a timeout.
import type { TransferListItem } from 'node:worker_threads';
import { newInt32Block, SIGNAL_INTERRUPT, SIGNAL_WAKE, SIGNAL_WORDS } from '../control-block';
import type { RealmData, RealmMode, RealmToMain } from '../vu/wire';
import { type RealmEvents, RealmHandle, workerLink } from './realm-handle';

export type TransientReply =
  | Extract<RealmToMain, { type: 'init0' } | { type: 'result' } | { type: 'initError' }>
  | { type: 'timeout' }
  | { type: 'aborted'; message: string };

export async function runTransientRealm(
  mode: Exclude<RealmMode, 'vu'>,
  template: Omit<RealmData, 'mode' | 'vuId' | 'signal'>,
  events: RealmEvents,
  timeoutMs: number,
  /** When it settles, the realm's next sleep or HTTP call throws (setup(): runner/vu/interruption.ts). */
  interrupt?: Promise<unknown>,
): Promise<TransientReply> {
  const signal = newInt32Block(SIGNAL_WORDS);
  void interrupt?.then(() => {
    Atomics.store(signal, SIGNAL_INTERRUPT, 1);
    Atomics.store(signal, SIGNAL_WAKE, 1);
    Atomics.notify(signal, SIGNAL_WAKE);
  });
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
  try {
    const reply = await Promise.race([
      realm
        .next('init0', 'result', 'initError')
        .catch((e: Error): TransientReply => ({ type: 'result', ok: false, message: e.message })),
      new Promise<TransientReply>((resolve) => {
        timer = setTimeout(() => resolve({ type: 'timeout' }), timeoutMs);
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
