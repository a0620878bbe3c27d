// Entry of an HTTP I/O worker thread: receives one MessagePort per VU from HttpIoPool and serves that VU's requests
// on its own connection pool (runner/http/vu-connection.ts).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { publishLoopLag } from '../metrics/loop-lag';
import { undici } from './undici';
import { VuConnection } from './vu-connection';
import type { IoControlMessage, IoStatusMessage, IoWorkerData, VuToIoMessage } from './wire';

if (!parentPort) throw new Error('http-io.worker must run as a worker thread');
const control = parentPort;
const connections = new Map<VuConnection, MessagePort>();

/** Serves one VU's port; when the VU side goes away (its thread ended) the pool's sockets are closed. */
function serve(port: MessagePort): void {
  const connection = new VuConnection((reply, transfer) => port.postMessage(reply, transfer));
  connections.set(connection, port);
  port.on('message', (message: VuToIoMessage) => connection.handle(message));
  port.once('close', () => {
    void connection.close().then(() => connections.delete(connection));
  });
}

// This thread's event-loop lag for bench_event_loop_lag{thread:http}. A 10 ms probe resolution keeps the probe's own
// wake-ups rare on this busy thread.
const { loopLag, index } = workerData as IoWorkerData;
publishLoopLag(loopLag, index);

function post(message: IoStatusMessage): void {
  control.postMessage(message);
}

control.on('message', async (message: IoControlMessage) => {
  if (message.t === 'vu') {
    serve(message.port);
  } else if (message.t === 'close') {
    await Promise.all(
      [...connections].map(async ([connection, port]) => {
        await connection.close();
        port.close();
      }),
    );
    connections.clear();
    post({ t: 'closed' });
    control.close();
  }
});
// This thread starts when the first realm is connected to it, and that realm is about to send requests: undici is
// loaded now, while the VUs initialise, rather than by the first request (docs/runner-measurements.md §4.2; seconds
// on a loaded machine: a run without setup(), such as an instance of `bench run --instances`, started with its VUs
// all busy).
// 'ready' follows it, so that a run can start its scenarios once no I/O thread is still booting (HttpIoPool.whenBooted).
setImmediate(() => {
  undici();
  post({ t: 'ready' });
});
