// A loopback TCP server that misbehaves on purpose, one fault per path, for the runner's fault suite. It speaks just
// enough HTTP/1.1 (request heads without bodies, keep-alive for the well-behaved routes) to answer a k6 script, and
// counts every request head it read per route, so a test can compare the runner's counts with what arrived.
//
//   /ok               200 "ok" at once                   /late/MS        200 "late" after MS ms
//   /reset            TCP RST instead of an answer        /close          FIN without a byte of answer
//   /stall            reads the request, never answers    /stall-body     headers and 10 of 1000 bytes, then nothing
//   /garbage          "HELLO\r\n\r\n", then FIN            /bad-status     "HTTP/1.1 abc OK", then FIN
//   /bad-header       a header line without a colon      /bad-chunk      chunked body with a non-hex chunk size
//   /truncate         Content-Length 1000, 100 bytes, FIN /huge/MB        MB MiB of body, as fast as it is read
import { createServer, type Server, type Socket } from 'node:net';

export interface FaultServer {
  url: string;
  /** Request heads read, per route (the path's first segment, e.g. "late" for /late/200). */
  counts: Map<string, number>;
  close(): Promise<void>;
}

const MIB = Buffer.alloc(1024 * 1024, 'x');

function head(status: string, headers: Record<string, string | number>): string {
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${status}\r\n${lines.join('')}\r\n`;
}

/** Writes `mib` MiB of body, respecting backpressure; resolves when all of it is queued or the socket died. */
function pump(socket: Socket, mib: number): void {
  let left = mib;
  const more = () => {
    while (left > 0 && !socket.destroyed) {
      left--;
      if (!socket.write(MIB)) {
        socket.once('drain', more);
        return;
      }
    }
  };
  more();
}

/** Answers one request; returns true when the connection stays usable for the next one. */
function answer(socket: Socket, path: string): boolean {
  const [route = '', arg = ''] = path.split('/').filter(Boolean);
  switch (route) {
    case 'ok':
      socket.write(`${head('200 OK', { 'content-length': 2 })}ok`);
      return true;
    case 'late':
      setTimeout(() => {
        if (!socket.destroyed) socket.write(`${head('200 OK', { 'content-length': 4 })}late`);
      }, Number(arg));
      return true;
    case 'reset':
      socket.resetAndDestroy();
      return false;
    case 'close':
      socket.end();
      return false;
    case 'stall':
      return false;
    case 'stall-body':
      socket.write(`${head('200 OK', { 'content-length': 1000 })}${'y'.repeat(10)}`);
      return false;
    case 'garbage':
      socket.end('HELLO\r\n\r\n');
      return false;
    case 'bad-status':
      socket.end('HTTP/1.1 abc OK\r\ncontent-length: 0\r\n\r\n');
      return false;
    case 'bad-header':
      socket.end('HTTP/1.1 200 OK\r\nno colon here\r\ncontent-length: 0\r\n\r\n');
      return false;
    case 'bad-chunk':
      socket.end(`${head('200 OK', { 'transfer-encoding': 'chunked' })}zz\r\nabc\r\n0\r\n\r\n`);
      return false;
    case 'truncate':
      socket.end(`${head('200 OK', { 'content-length': 1000 })}${'t'.repeat(100)}`);
      return false;
    case 'huge': {
      const mib = Number(arg);
      socket.write(head('200 OK', { 'content-length': mib * MIB.length }));
      pump(socket, mib);
      return true;
    }
    default:
      socket.write(`${head('404 Not Found', { 'content-length': 0 })}`);
      return true;
  }
}

export async function startFaultServer(): Promise<FaultServer> {
  const counts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = '';
    let usable = true;
    socket.on('data', (chunk: Buffer) => {
      if (!usable) return;
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0 && usable; end = pending.indexOf('\r\n\r\n')) {
        const requestLine = pending.slice(0, pending.indexOf('\r\n'));
        pending = pending.slice(end + 4);
        const path = requestLine.split(' ')[1] ?? '/';
        const route = path.split('/').filter(Boolean)[0] ?? '';
        counts.set(route, (counts.get(route) ?? 0) + 1);
        usable = answer(socket, path);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fault server: no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
