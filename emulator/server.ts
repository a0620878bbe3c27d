// The HTTP listener: authentication, route dispatch, bodies, and the one place where errors become responses
// (ApiError -> its status and the turbopuffer envelope; a client gone mid-request -> one quiet log line; anything
// else -> a logged 500).
import { timingSafeEqual } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  maxHeaderSize,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, envelope, tooManyRequests } from './api-error';
import type { EmulatorConfig } from './config';
import { ClientAbortError, readBody } from './http/body';
import { BufferPool } from './http/buffer-pool';
import { InflightBudget } from './http/inflight';
import { QueueDelay } from './http/overload';
import type { VectorColumnFactory } from './namespace/namespace';
import { type Log, NamespaceRegistry } from './namespace/registry';
import { startLoopMonitor, stopLoopMonitor } from './process/stats';
import type { RouteContext } from './routes/context';
import { matchRoute } from './routes/table';
import { stringifyJson } from './wire/json-text';

export interface RunningEmulator {
  server: Server;
  registry: NamespaceRegistry;
  /** http://host:port */
  url: string;
  close(): Promise<void>;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  // Ids above 2^53 are BigInts and go out as plain digits.
  const text = stringifyJson(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Compares the bearer token with the configured key without leaking timing; the key is never logged. */
function authorized(req: IncomingMessage, apiKey: string | null): boolean {
  if (apiKey === null) return true;
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7) : '';
  const a = Buffer.from(token);
  const b = Buffer.from(apiKey);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The request target's path as sent and its query. `new URL` would resolve "." and ".." segments, turning
 * `/v2/namespaces/./query` into a write to a namespace called "query"; kept as sent, "." reaches the name check.
 */
function requestTarget(raw: string): { pathname: string; query: URLSearchParams } {
  if (!raw.startsWith('/')) {
    const url = new URL(raw, 'http://emulator'); // absolute-form (proxies): normalized like any URL
    return { pathname: url.pathname, query: url.searchParams };
  }
  const q = raw.indexOf('?');
  return {
    pathname: q < 0 ? raw : raw.slice(0, q),
    query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)),
  };
}

/** Sockets whose request Node's HTTP parser refused (clientError): their handler's body read ends as an abort. */
const malformed = new WeakSet<Duplex>();

/** The status and message for a request Node's HTTP parser refused, as Node's own default picks the status. */
function malformedRequestReply(error: { code?: string; reason?: string; message?: string }): {
  status: number;
  message: string;
} {
  const what = `${error.reason ?? error.message ?? 'unreadable'}${error.code ? ` (${error.code})` : ''}`;
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      message: `request headers exceed ${maxHeaderSize} bytes: ${what}; send fewer or shorter headers`,
    };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, message: 'the request did not arrive in time; send it again' };
  return {
    status: error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW' ? 413 : 400,
    message: `malformed HTTP request: ${what}; send a well-formed HTTP/1.1 request`,
  };
}

/**
 * Node's 'clientError' (a request line, header or chunk its parser refused): answered with turbopuffer's envelope
 * instead of Node's bare 400, unless a response already started on the connection (writing then would corrupt it).
 */
function answerMalformed(error: NodeJS.ErrnoException & { reason?: string }, socket: Duplex): void {
  // The client went away (a reset, or its end of the connection mid-request): nobody to answer, and the request's
  // handler, if one runs, logs it as such.
  if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE') {
    socket.destroy();
    return;
  }
  malformed.add(socket);
  // _httpMessage is Node's in-flight response on this socket, which its own default handler checks the same way;
  // no public API says whether a response started.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const { status, message } = malformedRequestReply(error);
    const text = stringifyJson(envelope(message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

interface Shared {
  registry: NamespaceRegistry;
  pool: BufferPool;
  budget: InflightBudget;
  log: Log;
}

async function handle(req: IncomingMessage, res: ServerResponse, { registry, pool, budget, log }: Shared) {
  const startedAt = performance.now();
  const leases: Buffer[] = [];
  const allowance = budget.open();
  try {
    if (!authorized(req, registry.config.apiKey))
      throw new ApiError(401, 'missing or wrong API key (Authorization: Bearer <key>)');
    const { pathname, query } = requestTarget(req.url ?? '/');
    const match = matchRoute(req.method ?? 'GET', pathname);
    if (!match) throw new ApiError(404, `no such endpoint: ${req.method} ${pathname}`);
    if ('allowed' in match)
      throw new ApiError(
        405,
        `${req.method} is not allowed on ${pathname}; use ${match.allowed.join(' or ')}`,
        {
          allow: match.allowed.join(', '),
        },
      );
    let body: Promise<Buffer> | null = null;
    const ctx: RouteContext = {
      params: match.params,
      query,
      registry,
      pool,
      startedAt,
      body: () => {
        body ??= readBody(req, pool, registry.config.maxBodyBytes, allowance).then((b) => {
          leases.push(b);
          return b;
        });
        return body;
      },
      lease: (buffer) => leases.push(buffer),
    };
    const reply = await match.route.handler(ctx);
    send(res, reply.status ?? 200, reply.body, reply.headers);
  } catch (error) {
    if (error instanceof ClientAbortError) {
      // Not a server fault and nobody to answer: one line, no stack. A body Node's parser refused (a bad chunk)
      // ends the same way, and was answered by answerMalformed.
      if (malformed.has(req.socket))
        log(`malformed HTTP body during ${req.method} ${req.url}; request dropped`);
      else log(`client went away during ${req.method} ${req.url}: ${error.message}; request dropped`);
    } else if (error instanceof ApiError) {
      // An unread body (over the size limit or the in-flight budget): answer and close rather than drain it.
      const unreadBody = !req.complete && (error.status === 413 || error.status === 429);
      const headers = unreadBody ? { ...error.headers, connection: 'close' } : error.headers;
      send(res, error.status, envelope(error.message), headers);
    } else {
      log(`500 on ${req.method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      send(res, 500, envelope(`internal error: ${(error as Error)?.message ?? String(error)}`));
    }
  } finally {
    for (const buffer of leases) pool.release(buffer);
    allowance.close();
    // Anything the handler did not read must not be parsed as the next request on this connection.
    if (!req.complete) req.resume();
  }
}

/** How soon a client refused for overload is told to retry. */
const OVERLOAD_RETRY_MS = 100;
/** A refused request's body up to this is read and dropped (the connection stays usable); a longer one closes it. */
const DRAIN_BYTES = 64 * 1024;

/** 429 for a request the emulator has no room for now: answered without reading or keeping its body. */
function refuseOverload(req: IncomingMessage, res: ServerResponse, why: string): void {
  const error = tooManyRequests(`${why}; retry shortly`, OVERLOAD_RETRY_MS);
  const length = Number(req.headers['content-length'] ?? 0);
  const drain =
    req.complete || (Number.isFinite(length) && length <= DRAIN_BYTES && !req.headers['transfer-encoding']);
  send(res, 429, envelope(error.message), drain ? error.headers : { ...error.headers, connection: 'close' });
  if (drain) req.resume();
}

/** Starts the emulator; resolves once it listens. */
export async function startEmulator(
  config: EmulatorConfig,
  createColumn: VectorColumnFactory,
  log: Log = (line) => process.stderr.write(`bench emulator: ${line}\n`),
): Promise<RunningEmulator> {
  const registry = new NamespaceRegistry(config, createColumn, log);
  await registry.recover();
  startLoopMonitor();
  const shared: Shared = {
    registry,
    pool: new BufferPool(),
    budget: new InflightBudget(config.maxInflightBytes),
    log,
  };
  let pending = 0;
  const queueDelay = new QueueDelay();
  const server = createServer(
    {
      keepAliveTimeout: config.keepAliveTimeoutMs,
      // A connection that never sends its headers, or sends them a byte at a time, holds a socket and a parser
      // until this; so does a body that trickles in, until requestTimeout (node:http answers 408 through
      // clientError). Checked every second so that the timeouts hold to within a second.
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
    },
    (req, res) => {
      // Beyond the cap a request is refused at once rather than queued: an overload is then a stream of cheap
      // 429s the SDKs back off from, never a backlog of requests and their bodies growing in memory.
      if (pending >= config.maxPendingRequests) {
        refuseOverload(
          req,
          res,
          `too many requests in progress (the emulator handles ${config.maxPendingRequests} at once, --max-pending-requests)`,
        );
        return;
      }
      // The emulator's own endpoints (settings, stats) are cheap and what a run watches an overload through.
      const delay = queueDelay.ms;
      if (
        config.maxQueueDelayMs > 0 &&
        delay > config.maxQueueDelayMs &&
        !req.url?.startsWith('/_emulator/')
      ) {
        refuseOverload(
          req,
          res,
          `the emulator is saturated: its request thread has been busy for ${Math.round(delay)} ms without a ` +
            `break (over --max-queue-delay ${config.maxQueueDelayMs} ms)`,
        );
        return;
      }
      pending++;
      void handle(req, res, shared).finally(() => {
        pending--;
      });
    },
  );
  // Past the cap node:http closes new connections at once: idle and slow clients cannot take every socket and the
  // memory behind them (each connection's parser and buffers).
  server.maxConnections = config.maxConnections;
  server.on('clientError', answerMalformed);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    registry,
    url: `http://${host}:${address.port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await registry.close();
      queueDelay.stop();
      stopLoopMonitor();
    },
  };
}
