// Entry of an HTTP I/O worker thread: receives one MessagePort per VU from HttpIoPool and serves that VU's requests
// on its own connection pool (runner/http/vu-connection.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { LoopLagProbe } from '../metrics/loop-lag';
import { VuConnection } from './vu-connection';
import type { IoControlMessage, IoStatusMessage, IoWorkerData } from './wire';

if (!parentPort) throw new Error('http-io.worker must run as a worker thread');
const control = parentPort;
const connections = new Set<VuConnection>();

// This thread's event-loop lag, published every 100 ms as a running maximum the main thread takes once a second.
// A 10 ms probe resolution keeps the probe's own wake-ups rare on this busy thread.
const { loopLag, index } = workerData as IoWorkerData;
const probe = new LoopLagProbe(10);
setInterval(() => {
  const us = Math.round(probe.take() * 1000);
  if (us > Atomics.load(loopLag, index)) Atomics.store(loopLag, index, us);
}, 100).unref();

function post(message: IoStatusMessage): void {
  control.postMessage(message);
}

control.on('message', async (message: IoControlMessage) => {
  if (message.t === 'vu') {
    connections.add(new VuConnection(message.port, (c) => connections.delete(c)));
  } else if (message.t === 'close') {
    await Promise.all([...connections].map((c) => c.close()));
    connections.clear();
    post({ t: 'closed' });
    control.close();
  }
});
post({ t: 'ready' });
