// Response body bytes -> what the script sees: joined chunks, transparently decompressed (gzip, deflate, br, and
// zstd where Node has it), then text or ArrayBuffer per responseType. Runs in the VU's own thread.
import * as zlib from 'node:zlib';

export class DecompressionError extends Error {
  override name = 'DecompressionError';
}

/** Joins transferred chunks without copying when there is only one. */
export function joinChunks(chunks: readonly ArrayBuffer[]): Uint8Array {
  if (chunks.length === 1) return new Uint8Array(chunks[0]);
  let total = 0;
  for (const c of chunks) total += c.byteLength;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(new Uint8Array(c), at);
    at += c.byteLength;
  }
  return out;
}

// zstd arrived in Node 22.15; on Node 20 a zstd body is an error naming the missing support, never garbage.
const zstdDecompress = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array) => Buffer })
  .zstdDecompressSync;

function decodeOne(bytes: Uint8Array, encoding: string): Uint8Array {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(bytes);
    case 'deflate':
      // HTTP "deflate" is zlib-wrapped; some servers send raw deflate: inflateSync handles the former only.
      try {
        return zlib.inflateSync(bytes);
      } catch {
        return zlib.inflateRawSync(bytes);
      }
    case 'br':
      return zlib.brotliDecompressSync(bytes);
    case 'zstd':
      if (!zstdDecompress) throw new DecompressionError('zstd decompression needs Node.js 22.15 or later');
      return zstdDecompress(bytes);
    case 'identity':
    case '':
      return bytes;
    default:
      return bytes;
  }
}

/** Undoes Content-Encoding (a comma list, applied in order, so undone right to left). */
export function decompress(bytes: Uint8Array, contentEncoding: string | undefined): Uint8Array {
  if (!contentEncoding || bytes.byteLength === 0) return bytes;
  const encodings = contentEncoding
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  let out = bytes;
  for (let i = encodings.length - 1; i >= 0; i--) {
    try {
      out = decodeOne(out, encodings[i]);
    } catch (err) {
      if (err instanceof DecompressionError) throw err;
      throw new DecompressionError(
        `error decompressing the response body (${encodings[i]}): ${(err as Error).message}`,
      );
    }
  }
  return out;
}

/** True for encodings this runner decodes (others are passed through untouched, as Go does). */
function isDecodedEncoding(contentEncoding: string): boolean {
  return contentEncoding
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .some((e) => e === 'gzip' || e === 'x-gzip' || e === 'deflate' || e === 'br' || e === 'zstd');
}

/** Compresses a request body (params.compression), applying the algorithms in the order given. */
export function compress(bytes: Uint8Array, algorithms: readonly string[]): Uint8Array {
  let out = bytes;
  for (const algorithm of algorithms) {
    if (algorithm === 'gzip') out = zlib.gzipSync(out);
    else if (algorithm === 'deflate') out = zlib.deflateSync(out);
    else if (algorithm === 'br') out = zlib.brotliCompressSync(out);
    else if (algorithm === 'zstd') {
      const zstd = (zlib as unknown as { zstdCompressSync?: (b: Uint8Array) => Buffer }).zstdCompressSync;
      if (!zstd) throw new Error('compression "zstd" needs Node.js 22.15 or later');
      out = zstd(out);
    }
  }
  return out;
}

const decoder = new TextDecoder();

export function bytesToText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * An ArrayBuffer holding exactly `bytes` (no copy when the view already spans its whole buffer). Node Buffers from
 * zlib may be slices of a shared pool: copying through a fresh Uint8Array never exposes the rest of the pool.
 */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    return bytes.buffer as ArrayBuffer;
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

/** The body the script sees, per responseType; `failure` is a decompression error (k6 code 1701). */
export function responseBody(
  chunks: readonly ArrayBuffer[],
  status: number,
  responseType: 'text' | 'binary' | 'none',
  contentEncoding: string | undefined,
): { body: string | ArrayBuffer | null; failure: string | undefined } {
  // 1xx, 204 and 304 have no body; `none` read it and dropped it in the I/O worker.
  if (responseType === 'none' || status < 200 || status === 204 || status === 304) {
    return { body: null, failure: undefined };
  }
  try {
    let bytes = joinChunks(chunks);
    if (contentEncoding && isDecodedEncoding(contentEncoding)) bytes = decompress(bytes, contentEncoding);
    return {
      body: responseType === 'binary' ? toArrayBuffer(bytes) : bytesToText(bytes),
      failure: undefined,
    };
  } catch (err) {
    if (err instanceof DecompressionError) return { body: null, failure: err.message };
    throw err;
  }
}
