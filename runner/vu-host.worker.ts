// Entry of a VU host thread (`bench run --vu-threads N`): many VUs on one event loop, each with its own vm context
// (own globals and module instance, as k6 isolates VUs) and its own HTTP connection pool served on this thread.
// Thread-per-VU costs several times the CPU per request on a 2-core VM (every iteration wakes a thread;
// docs/runner-measurements.md §3); sharing the thread removes that, at the price of async-only scripts (blocking
// calls throw HostedBlockingError).
import { readFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import './modules/external';
import { httpWarm, httpWarmStarted } from './http/warm-up';
import { publishLoopLag } from './metrics/loop-lag';
import { SampleBatchEncoder } from './metrics/sample-batch';
import { createHostedRealm, newHostedContext } from './vu/realm';
import { requestPathWarm } from './vu/request-path-warm-up';
import { FLUSH_AGE_MS, type PostToMain, VuRuntime } from './vu/runtime';
import { inlineSourceMapRemapper, scriptStack, setFrameRemapper } from './vu/script-stack';
import { reportUncaught, serveVu } from './vu/serve-vu';
import type { HostData, HostToMain, MainToHost, MainToRealm } from './vu/wire';

if (!parentPort) throw new Error('vu-host.worker must run as a worker thread');
const port = parentPort;
process.setSourceMapsEnabled(true);
const { scriptPath, loopLag, awaits, shifts, refusal } = workerData as HostData;
// Every request of this thread's VUs is timed here: its lag is bench_event_loop_lag{thread:vu-host}.
publishLoopLag(loopLag, 0);
// Compiled once for every VU of this thread; each context runs it to get its own module instance.
const code = readFileSync(scriptPath, 'utf8');
const script = new Script(code, { filename: scriptPath });
// Node maps stack frames of modules it loads, not of a vm.Script: script errors are mapped here instead.
setFrameRemapper(inlineSourceMapRemapper(scriptPath, code, shifts));
const vus = new Map<number, (message: MainToRealm) => Promise<void>>();

const postFor =
  (vu: number): PostToMain =>
  (message, transfer) => {
    const wrapped: HostToMain = { vu, message };
    port.postMessage(wrapped, transfer ?? []);
  };

// The samples of all VUs of this thread travel in one batch per flush (fewer messages, and their shared tag sets are
// interned once); the main thread ingests them as the thread's, whatever VU emitted them. A batch goes out at the
// latest FLUSH_AGE_MS after its first sample, by one timer per batch: nothing wakes the thread while it has none.
const encoder: SampleBatchEncoder = new SampleBatchEncoder(postFor(0), () => {
  setTimeout(() => encoder.flush(), FLUSH_AGE_MS).unref();
});

// An error nobody awaited cannot be tied to a VU here: it is reported once, as the thread's.
reportUncaught(postFor(0));

function spawn(data: MainToHost & { type: 'spawn' }): void {
  const vu = data.data.vuId;
  const post = postFor(vu);
  const { context, global } = newHostedContext(vu);
  const rt = new VuRuntime(data.data, {
    post,
    global,
    hosted: true,
    encoder,
    awaitsBlocking: awaits,
    refusal,
  });
  try {
    const realm = createHostedRealm(rt, script, context);
    rt.encoder.flush();
    vus.set(
      vu,
      serveVu(rt, realm, () => {
        vus.delete(vu);
        // The last VU gone: this thread has nothing left to serve.
        if (vus.size === 0) setImmediate(() => process.exit(0));
      }),
    );
    // A VU whose script imports k6/http started the thread's HTTP warm-up (runner/http/warm-up.ts), then k6/http's
    // own (runner/vu/request-path-warm-up.ts): it is ready once both are over, so the test's first starts find the
    // thread's request path warm.
    void httpWarm()
      .then(() => (httpWarmStarted() ? requestPathWarm(data.data) : undefined))
      .then(() => post({ type: 'ready' }));
  } catch (error) {
    rt.encoder.flush();
    post({ type: 'initError', message: scriptStack(error) });
  }
}

port.on('message', (message: MainToHost) => {
  if (message.type === 'spawn') spawn(message);
  else void vus.get(message.vu)?.(message.message);
});
