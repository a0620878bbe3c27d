// Reads a request body into one pooled buffer (no per-chunk concatenation, no fresh 40 MB allocation per write),
// enforces the size limit (413) and undoes gzip when the client compressed it.
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { ApiError } from '../api-error';
import type { BufferPool } from './buffer-pool';

const gunzipAsync = promisify(gunzip);

function tooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    `request body exceeds the ${limit} byte limit of one write (turbopuffer allows 512 MB)`,
  );
}

/** The body as one Buffer from `pool` (release it when done). */
export async function readBody(req: IncomingMessage, pool: BufferPool, limit: number): Promise<Buffer> {
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && declared > limit) throw tooLarge(limit);
  let buffer = pool.acquire(declared ?? 64 * 1024);
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (length + chunk.length > limit) throw tooLarge(limit);
    if (length + chunk.length > buffer.length) {
      const bigger = pool.acquire(Math.min(limit, Math.max(buffer.length * 2, length + chunk.length)));
      buffer.copy(bigger, 0, 0, length);
      pool.release(buffer);
      buffer = bigger;
    }
    chunk.copy(buffer, length);
    length += chunk.length;
  }
  const body = buffer.subarray(0, length);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === '' || encoding === 'identity') return body;
  if (encoding !== 'gzip') {
    pool.release(buffer);
    throw new ApiError(415, `content-encoding ${encoding} is not supported; send gzip or no encoding`);
  }
  try {
    return await gunzipAsync(body, { maxOutputLength: limit });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit);
    throw new ApiError(400, `request body is not valid gzip: ${(error as Error).message}`);
  } finally {
    pool.release(buffer);
  }
}
