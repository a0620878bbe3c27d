// Warms a host thread's HTTP path before its VUs are ready: a burst of requests through the code a hosted VU's
// requests take (LocalIo, undici's Agent, Pool and Client, llhttp, Exchange, socket timings) to a server on this
// thread, on 127.0.0.1 only. Until V8 has optimised that code a request costs several times its steady CPU, and the
// first second of a 2000/s test had more starts due than the thread could take: its VUs fell behind and the starts
// after them were dropped. Nothing of it reaches the test: no samples, no script code, no connection kept.
import { type AddressInfo, createServer } from 'node:net';
import { LocalIo } from './local-io';
import { undici } from './undici';

/** Requests of the warm-up, and how many run at once (each on its own connection, as concurrent VUs do). */
const ROUNDS = 2000;
const PARALLEL = 4;
/** The warm-up ends here whatever is left of it (a loaded machine must not hold the VUs' start for long). */
const BUDGET_MS = 1000;

const REPLY = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

let warming: Promise<void> | undefined;

/** Starts this thread's warm-up once (loading undici now); httpWarm() resolves when it is over. */
export function warmHttp(): void {
  undici();
  warming ??= run().catch(() => {});
}

/** Resolves once the warm-up started by warmHttp() is over (at once when none was started). */
export function httpWarm(): Promise<void> {
  return warming ?? Promise.resolve();
}

async function run(): Promise<void> {
  const server = createServer((socket) => {
    // A warm-up request has no body and its head arrives whole: one reply per chunk.
    socket.on('data', () => socket.write(REPLY));
    socket.on('error', () => {});
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
    const io = new LocalIo({
      signal: new Int32Array(new SharedArrayBuffer(16)),
      insecureSkipTLSVerify: false,
      noConnectionReuse: false,
    });
    const origin = `http://127.0.0.1:${port}`;
    const until = performance.now() + BUDGET_MS;
    const requests = async () => {
      for (let i = 0; i < ROUNDS / PARALLEL && performance.now() < until; i++) {
        await io.sendAsync({
          method: 'GET',
          origin,
          path: '/',
          headers: ['User-Agent', 'bench warm-up'],
          body: null,
          sharedBody: -1,
          timeoutMs: BUDGET_MS,
          discardBody: true,
        }).reply;
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, requests));
    io.closeIdleConnections();
  } finally {
    server.close();
  }
}
