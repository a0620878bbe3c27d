// Entry of a k6/ws I/O worker: one WebSocket connection of one VU, served while the VU's thread blocks in
// ws.connect() (runner/modules/ws.ts). Every event is posted to the VU's port, then the VU's signal word is set and
// notified, as the HTTP I/O worker wakes a VU blocked in a sync request.
import { type MessagePort, workerData } from 'node:worker_threads';
import { WebSocket } from 'ws';
import { SIGNAL_WAKE } from './modules/module-host';
import type { WsCommand, WsEvent } from './ws/wire';

const { port, signal } = workerData as { port: MessagePort; signal: Int32Array };

function post(event: WsEvent, transfer: ArrayBuffer[] = []): void {
  port.postMessage(event, transfer);
  Atomics.store(signal, SIGNAL_WAKE, 1);
  Atomics.notify(signal, SIGNAL_WAKE);
}

let socket: WebSocket | undefined;

function open(command: Extract<WsCommand, { t: 'open' }>): void {
  const startedAt = performance.now();
  const start = Date.now();
  socket = new WebSocket(command.url, command.protocols, {
    headers: command.headers,
    perMessageDeflate: command.compression,
    rejectUnauthorized: !command.insecure,
    ...command.tls,
  });
  const s = socket;
  const handshake = (status: number, headers: Record<string, unknown>, body: string) =>
    post({
      t: 'handshake',
      status,
      headers: Object.fromEntries(
        Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
      ),
      body,
      connectingMs: performance.now() - startedAt,
      start,
    });
  s.on('upgrade', (response) => handshake(response.statusCode ?? 101, response.headers, ''));
  s.on('unexpected-response', (_request, response) => {
    let body = '';
    response.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    response.on('end', () => {
      handshake(response.statusCode ?? 0, response.headers, body);
      post({ t: 'error', message: 'websocket: bad handshake' });
      post({ t: 'close', code: 1006, sent: 0, received: 0 });
    });
  });
  s.on('open', () => post({ t: 'open' }));
  s.on('message', (data, isBinary) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    if (!isBinary) {
      post({ t: 'message', data: bytes.toString('utf8'), binary: false });
      return;
    }
    const copy = new Uint8Array(bytes).buffer;
    post({ t: 'message', data: copy, binary: true }, [copy]);
  });
  s.on('ping', () => post({ t: 'ping' }));
  s.on('pong', () => post({ t: 'pong' }));
  s.on('error', (error) => post({ t: 'error', message: error.message }));
  s.on('close', (code) => {
    const raw = s as unknown as { _socket?: { bytesWritten?: number; bytesRead?: number } };
    post({ t: 'close', code, sent: raw._socket?.bytesWritten ?? 0, received: raw._socket?.bytesRead ?? 0 });
  });
}

port.on('message', (command: WsCommand) => {
  switch (command.t) {
    case 'open':
      open(command);
      return;
    case 'send':
      socket?.send(command.data, { binary: typeof command.data !== 'string' });
      return;
    case 'ping':
      socket?.ping();
      return;
    case 'close':
      if (socket && socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket?.close(command.code);
      return;
  }
});
