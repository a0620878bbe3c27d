// Entry of an HTTP I/O worker thread: receives one MessagePort per VU from HttpIoPool and serves that VU's requests
// on its own connection pool (runner/http/vu-connection.ts).
import { parentPort } from 'node:worker_threads';
import { VuConnection } from './vu-connection';
import type { IoControlMessage, IoStatusMessage } from './wire';

if (!parentPort) throw new Error('http-io.worker must run as a worker thread');
const control = parentPort;
const connections = new Set<VuConnection>();

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
