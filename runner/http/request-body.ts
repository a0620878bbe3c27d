// Request bodies as k6 encodes them (docs/k6-behaviour.md §4.2): strings as UTF-8, ArrayBuffers as raw bytes, plain objects
// as application/x-www-form-urlencoded, objects holding http.file() values as multipart/form-data. Runs in the VU's
// own thread and always yields a fresh ArrayBuffer, which is then transferred (not copied) to the I/O worker.

import { randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isArrayBuffer } from '../modules/cross-realm';
import { SHARED_BODY_MIN_BYTES, type SharedBodyBuffer } from './shared-body';

/** What http.file() returns (k6's FileData). */
export class FileData {
  constructor(
    readonly data: string | ArrayBuffer,
    readonly filename: string,
    readonly content_type: string,
  ) {}
}

export function file(data: unknown, filename?: unknown, contentType?: unknown): FileData {
  if (typeof data !== 'string' && !isArrayBuffer(data) && !ArrayBuffer.isView(data)) {
    throw new TypeError('http.file: data must be a string or an ArrayBuffer');
  }
  const bytes = ArrayBuffer.isView(data) ? copyBytes(data) : data;
  const name =
    filename === undefined || filename === null || filename === '' ? `${Date.now()}` : String(filename);
  const type = contentType ? String(contentType) : 'application/octet-stream';
  return new FileData(bytes, name, type);
}

export interface EncodedBody {
  bytes: ArrayBuffer | null;
  /** Byte length of a body written into the VU's shared body buffer instead of `bytes` (large sync bodies). */
  shared?: number;
  /** Content-Type k6 sets for structured bodies (not for strings or raw bytes). */
  contentType?: string;
  /** The body as text for res.request.body: strings and forms ("" for bytes and multipart, not decoded again). */
  text: string;
}

const encoder = new TextEncoder();

function copyBytes(view: ArrayBufferView): ArrayBuffer {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice().buffer;
}

/** Go's url.QueryEscape: only A-Z a-z 0-9 - _ . ~ stay as they are; space becomes "+". */
export function queryEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** Form values: arrays repeat the key, null/undefined are empty, nested objects are empty with a warning. */
function formValues(key: string, value: unknown, warn: (message: string) => void): string[] {
  if (value === null || value === undefined) return [''];
  if (Array.isArray(value)) return value.flatMap((v) => formValues(key, v, warn));
  if (typeof value === 'object') {
    warn(`request body field "${key}" is a nested object; it is sent as an empty value`);
    return [''];
  }
  return [String(value)];
}

export function encodeForm(body: Record<string, unknown>, warn: (message: string) => void): string {
  const parts: string[] = [];
  // k6 encodes with Go's url.Values.Encode, which sorts the keys.
  for (const key of Object.keys(body).sort()) {
    for (const value of formValues(key, body[key], warn))
      parts.push(`${queryEscape(key)}=${queryEscape(value)}`);
  }
  return parts.join('&');
}

function escapeQuotes(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

function encodeMultipart(
  body: Record<string, unknown>,
  boundary: string,
  warn: (message: string) => void,
): ArrayBuffer {
  const chunks: Uint8Array[] = [];
  for (const [key, value] of Object.entries(body)) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      let head = `--${boundary}\r\n`;
      let content: Uint8Array;
      if (item instanceof FileData) {
        head += `Content-Disposition: form-data; name="${escapeQuotes(key)}"; filename="${escapeQuotes(item.filename)}"\r\n`;
        head += `Content-Type: ${item.content_type}\r\n\r\n`;
        content = typeof item.data === 'string' ? encoder.encode(item.data) : new Uint8Array(item.data);
      } else {
        head += `Content-Disposition: form-data; name="${escapeQuotes(key)}"\r\n\r\n`;
        content = encoder.encode(formValues(key, item, warn)[0]);
      }
      chunks.push(encoder.encode(head), content, encoder.encode('\r\n'));
    }
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out.buffer;
}

function hasFile(body: Record<string, unknown>): boolean {
  return Object.values(body).some(
    (v) => v instanceof FileData || (Array.isArray(v) && v.some((x) => x instanceof FileData)),
  );
}

/**
 * UTF-8 of a large string, one slice per event-loop turn (two passes: byte length, then the bytes): a VU host thread
 * serves other VUs between slices, where one TextEncoder call on 30 MB held it for tens of milliseconds
 * (docs/runner-measurements.md §4.4). The bytes are those of
 * encoder.encode(text): a slice never ends between the two halves of a surrogate pair. A rope (a string built by
 * concatenation or repeat) is still flattened at the first slice, in one go.
 */
export async function encodeStringInSlices(text: string, sliceChars = 1 << 20): Promise<ArrayBuffer> {
  const ends: number[] = [];
  let total = 0;
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + sliceChars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    total += Buffer.byteLength(text.slice(at, end), 'utf8');
    ends.push(end);
    at = end;
    await nextTurn();
  }
  const out = new Uint8Array(total);
  let written = 0;
  let from = 0;
  for (const end of ends) {
    written += encoder.encodeInto(text.slice(from, end), out.subarray(written)).written;
    from = end;
    await nextTurn();
  }
  return out.buffer;
}

/** Encodes a k6 request body; `boundary` is injectable for tests. */
export function encodeBody(
  body: unknown,
  warn: (message: string) => void,
  boundary: () => string = () => randomBytes(30).toString('hex'),
): EncodedBody {
  if (body === null || body === undefined) return { bytes: null, text: '' };
  if (typeof body === 'string') return { bytes: encoder.encode(body).buffer as ArrayBuffer, text: body };
  // Copied, never transferred as is: the script may send the same buffer again.
  if (isArrayBuffer(body)) return { bytes: body.slice(0), text: '' };
  if (ArrayBuffer.isView(body)) return { bytes: copyBytes(body), text: '' };
  if (typeof body === 'object') {
    const fields = body as Record<string, unknown>;
    if (hasFile(fields)) {
      const b = boundary();
      return {
        bytes: encodeMultipart(fields, b, warn),
        contentType: `multipart/form-data; boundary=${b}`,
        text: '',
      };
    }
    const text = encodeForm(fields, warn);
    return {
      bytes: encoder.encode(text).buffer as ArrayBuffer,
      contentType: 'application/x-www-form-urlencoded',
      text,
    };
  }
  const text = String(body);
  return { bytes: encoder.encode(text).buffer as ArrayBuffer, text };
}

/** Any view as its bytes (no copy). */
function bytesOf(view: ArrayBufferView | ArrayBuffer): Uint8Array {
  return isArrayBuffer(view)
    ? new Uint8Array(view)
    : new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * For a synchronous call: a large string or binary body written straight into the VU's shared body buffer (the same
 * bytes encodeBody would produce, without a fresh ArrayBuffer); undefined for anything else.
 */
export function encodeBodyShared(body: unknown, shared: SharedBodyBuffer): EncodedBody | undefined {
  if (typeof body === 'string') {
    // UTF-8 never has fewer bytes than UTF-16 code units, so this length test never sends a small body here.
    if (body.length < SHARED_BODY_MIN_BYTES) return undefined;
    return { bytes: null, shared: shared.write(body), text: body };
  }
  if (isArrayBuffer(body) || ArrayBuffer.isView(body)) {
    if (body.byteLength < SHARED_BODY_MIN_BYTES) return undefined;
    return { bytes: null, shared: shared.write(bytesOf(body)), text: '' };
  }
  return undefined;
}

/** Moves an already encoded large body (form, multipart, compressed) into the shared buffer. */
export function moveToShared(encoded: EncodedBody, shared: SharedBodyBuffer): void {
  if (!encoded.bytes || encoded.bytes.byteLength < SHARED_BODY_MIN_BYTES) return;
  encoded.shared = shared.write(new Uint8Array(encoded.bytes));
  encoded.bytes = null;
}
