// Messages between a VU's k6/ws module and its WebSocket I/O worker (runner/ws/ws-io.worker.ts).

/** VU -> worker. */
export type WsCommand =
  | {
      t: 'open';
      url: string;
      protocols: string[];
      headers: Record<string, string>;
      compression: boolean;
      insecure: boolean;
      tls: Record<string, unknown>;
    }
  | { t: 'send'; data: string | ArrayBuffer }
  | { t: 'ping' }
  | { t: 'close'; code: number };

/** Worker -> VU; each is followed by a wake of the VU's signal word. */
export type WsEvent =
  | {
      t: 'handshake';
      status: number;
      headers: Record<string, string>;
      body: string;
      connectingMs: number;
      start: number;
    }
  | { t: 'open' }
  | { t: 'message'; data: string | ArrayBuffer; binary: boolean }
  | { t: 'ping' }
  | { t: 'pong' }
  | { t: 'error'; message: string }
  | { t: 'close'; code: number; sent: number; received: number };
