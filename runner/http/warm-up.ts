// Warms a host thread's HTTP path before its VUs are ready: a burst of requests through the code a hosted VU's
// requests take (LocalIo, undici's Agent, Pool and Client, llhttp, Exchange, socket timings) to a server on this
// thread, on 127.0.0.1 only. Until V8 has optimised that code a request costs several times its steady CPU, and the
// first second of a 2000/s test had more starts due than the thread could take: its VUs fell behind and the starts
// after them were dropped. The test's first starts also open one connection per VU at once, each through a VU's own
// Agent, Pool and Client: the warm-up runs as many lanes as a usual VU count, each on its own LocalIo, reconnecting
// every few requests, so that code is warm too (make bench-runner's figures before and after are in runner/README.md
// and its git history). Nothing of it reaches the test: no samples, no script code, no connection kept.
import { type AddressInfo, createServer, type Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LocalIo } from './local-io';
import { undici } from './undici';

/** Lanes run at once (each with its own LocalIo, as VUs have), and requests per lane (1,920 in all). */
export const LANES = 24;
export const LANE_REQUESTS = 80;
/** A lane closes its connection after this many requests, so connecting is warmed too (96 connections in all). */
export const RECONNECT_EVERY = 20;
/** The warm-up ends here whatever is left of it (a loaded machine must not hold the VUs' start for long). */
const BUDGET_MS = 1000;

const REPLY = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

let warming: Promise<void> | undefined;

/** Starts this thread's warm-up once (loading undici now); httpWarm() resolves when it is over. */
export function warmHttp(): void {
  undici();
  warming ??= warmUp().then(
    () => {},
    () => {},
  );
}

/** Resolves once the warm-up started by warmHttp() is over (at once when none was started). */
export function httpWarm(): Promise<void> {
  return warming ?? Promise.resolve();
}

/** What one warm-up did (for tests). */
export interface WarmUpStats {
  requests: number;
  /** Connections the warm-up server accepted. */
  connections: number;
  /** Of those, the ones its clients had not closed when it ended (it cut them). */
  cut: number;
}

/** What a warm-up server saw. */
export interface WarmUpConnections {
  accepted: number;
  /** Connections still open when the clients were done: cut by the server. */
  cut: number;
}

/** Whether a VU of this thread imported k6/http (warmHttp() was called): its request path is then worth warming. */
export function httpWarmStarted(): boolean {
  return warming !== undefined;
}

/**
 * Runs `use` against a server on 127.0.0.1 of this thread that answers every request head with 200 "ok", then waits
 * (briefly) for its clients to close their connections, cuts those left and closes it. Resolves with how many
 * connections it accepted, once their closing is over: what a warm-up sets off must not run into the test.
 */
export async function withWarmUpServer(use: (origin: string) => Promise<void>): Promise<WarmUpConnections> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A warm-up request has no body and its head arrives whole: one reply per chunk.
    socket.on('data', () => socket.write(REPLY));
    socket.on('error', () => {});
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
    await use(`http://127.0.0.1:${port}`);
    await allClosed(sockets, CLOSE_WAIT_MS);
    return { accepted, cut: sockets.size };
  } finally {
    server.close();
    for (const socket of sockets) socket.destroy();
    // The client side's close handlers run in the next turns: they must not spill into the test's first starts.
    await nextTurn();
    await nextTurn();
  }
}

/** How long a warm-up waits for its clients to close their connections before it cuts them. */
const CLOSE_WAIT_MS = 200;

/** Resolves once every socket in `sockets` has closed (they leave the set as they do), or after `ms`. */
function allClosed(sockets: Set<Socket>, ms: number): Promise<void> {
  if (sockets.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const check = () => {
      if (sockets.size > 0) return;
      clearTimeout(timer);
      resolve();
    };
    for (const socket of sockets) socket.once('close', () => setImmediate(check));
  });
}

/** One warm-up: up to LANES x LANE_REQUESTS requests within BUDGET_MS; every connection is closed when it resolves. */
export async function warmUp(): Promise<WarmUpStats> {
  let requests = 0;
  const { accepted, cut } = await withWarmUpServer(async (origin) => {
    const until = performance.now() + BUDGET_MS;
    const lane = async () => {
      const io = new LocalIo({
        signal: new Int32Array(new SharedArrayBuffer(16)),
        insecureSkipTLSVerify: false,
        noConnectionReuse: false,
      });
      for (let i = 0; i < LANE_REQUESTS && performance.now() < until; i++) {
        if (i > 0 && i % RECONNECT_EVERY === 0) io.closeIdleConnections();
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
        requests++;
      }
      await io.close();
    };
    await Promise.all(Array.from({ length: LANES }, lane));
  });
  return { requests, connections: accepted, cut };
}
