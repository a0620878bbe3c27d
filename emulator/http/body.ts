// Reads a request body into one pooled buffer (no per-chunk concatenation, no fresh 40 MB allocation per write),
// enforces the size limit (413) and the in-flight budget (429), and undoes gzip as a stream that stops at the limit:
// a small compressed body never inflates past it, a body whose size field says more is counted without being kept,
// and the event loop only copies chunks the zlib thread produced.
import type { IncomingMessage } from 'node:http';
import { createGunzip } from 'node:zlib';
import { ApiError } from '../api-error';
import type { BufferPool } from './buffer-pool';
import type { BodyAllowance } from './inflight';

/** First buffer for a body of unknown length; it doubles as needed. */
const INITIAL_BYTES = 64 * 1024;
/** zlib output per chunk: large enough that a 500 MB body is a few thousand event-loop turns, not 30,000. */
const INFLATE_CHUNK_BYTES = 256 * 1024;
/** deflate cannot do better than about 1032:1, so a gzip trailer claiming more is not believed for pre-sizing. */
const MAX_DEFLATE_RATIO = 1032;

/** The client closed the connection before its body arrived: nothing to answer, nothing went wrong here. */
export class ClientAbortError extends Error {
  override name = 'ClientAbortError';
}

function tooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    `request body exceeds the ${limit} byte limit of one write (turbopuffer allows 512 MB)`,
  );
}

/** A growable pooled buffer whose capacity is counted against the in-flight budget. */
class BodyBuffer {
  private buffer: Buffer;
  length = 0;

  constructor(
    private readonly pool: BufferPool,
    private readonly allowance: BodyAllowance,
    private readonly limit: number,
    initial: number,
  ) {
    allowance.reserve(initial);
    this.buffer = pool.acquire(initial);
  }

  append(chunk: Buffer): void {
    if (this.length + chunk.length > this.limit) throw tooLarge(this.limit);
    if (this.length + chunk.length > this.buffer.length) {
      const size = Math.min(this.limit, Math.max(this.buffer.length * 2, this.length + chunk.length));
      this.allowance.reserve(size);
      const bigger = this.pool.acquire(size);
      this.buffer.copy(bigger, 0, 0, this.length);
      this.release();
      this.buffer = bigger;
    }
    chunk.copy(this.buffer, this.length);
    this.length += chunk.length;
  }

  /** The bytes so far; the view is released with the whole buffer. */
  get bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  release(): void {
    this.allowance.give(this.buffer.length);
    this.pool.release(this.buffer);
  }
}

async function readRaw(
  req: IncomingMessage,
  pool: BufferPool,
  limit: number,
  allowance: BodyAllowance,
  declared: number | null,
): Promise<BodyBuffer> {
  const body = new BodyBuffer(pool, allowance, limit, declared ?? INITIAL_BYTES);
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) body.append(chunk);
  } catch (error) {
    body.release();
    if (error instanceof ApiError) throw error;
    throw new ClientAbortError(`the client closed the connection after ${body.length} body bytes`);
  }
  // An aborted upload can also end the stream quietly, short of its declared length.
  if (!req.complete) {
    body.release();
    throw new ClientAbortError(`the client closed the connection after ${body.length} body bytes`);
  }
  return body;
}

function notGzip(error: unknown): ApiError {
  return new ApiError(400, `request body is not valid gzip: ${(error as Error).message}`);
}

/**
 * Inflates without keeping the output, counting it: 413 once it passes the limit, 400 when the stream is broken
 * (a body cut short ends early); otherwise the inflated size.
 */
async function inflatedSize(compressed: Buffer, limit: number): Promise<number> {
  const gunzip = createGunzip({ chunkSize: INFLATE_CHUNK_BYTES });
  gunzip.end(compressed);
  let size = 0;
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge(limit);
    }
    return size;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw notGzip(error);
  } finally {
    gunzip.destroy();
  }
}

async function gunzipBounded(
  compressed: Buffer,
  pool: BufferPool,
  limit: number,
  allowance: BodyAllowance,
): Promise<Buffer> {
  // A whole gzip body ends with its uncompressed size (mod 2^32, of the last member): never below the real size.
  let claimed = compressed.length >= 18 ? compressed.readUInt32LE(compressed.length - 4) : 0;
  // Above the limit: a bomb, or a body cut short whose last bytes only look like a size. Counting tells them apart
  // (413 past the limit, 400 for a broken stream) without holding the output; a stream that ends under the limit
  // has a size field that lied, and the count is its real size.
  if (claimed > limit) claimed = await inflatedSize(compressed, limit);
  const initial = Math.max(INITIAL_BYTES, Math.min(claimed, limit, compressed.length * MAX_DEFLATE_RATIO));
  const out = new BodyBuffer(pool, allowance, limit, initial);
  const gunzip = createGunzip({ chunkSize: INFLATE_CHUNK_BYTES });
  gunzip.end(compressed);
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) out.append(chunk);
    return out.bytes;
  } catch (error) {
    out.release();
    if (error instanceof ApiError) throw error;
    throw notGzip(error);
  } finally {
    gunzip.destroy();
  }
}

/** The body as one Buffer from `pool` (release it when done), counted against `allowance` until it is closed. */
export async function readBody(
  req: IncomingMessage,
  pool: BufferPool,
  limit: number,
  allowance: BodyAllowance,
): Promise<Buffer> {
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && declared > limit) throw tooLarge(limit);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding !== '' && encoding !== 'identity' && encoding !== 'gzip')
    throw new ApiError(415, `content-encoding ${encoding} is not supported; send gzip or no encoding`);
  const raw = await readRaw(req, pool, limit, allowance, declared);
  if (encoding !== 'gzip') return raw.bytes;
  try {
    return await gunzipBounded(raw.bytes, pool, limit, allowance);
  } finally {
    raw.release();
  }
}
