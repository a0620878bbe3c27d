// JSON request bodies without materializing their big base64 strings. JSON.parse of a 40 MB upsert costs ~180 ms and
// its vector strings another ~120 ms of fresh memory (docs/engine-measurements.md §2), so long
// escape-free strings stay in the request buffer as RawString and are decoded straight into Float32Arrays where a
// vector is expected; everything else is ordinary JSON.parse on what remains (ids and attributes).
import { randomBytes } from 'node:crypto';
import { badRequest } from '../api-error';

/** A JSON string still sitting in the request buffer: bytes [start, end) between its quotes, without escapes. */
export class RawString {
  constructor(
    readonly body: Buffer,
    readonly start: number,
    readonly end: number,
  ) {}
  get byteLength(): number {
    return this.end - this.start;
  }
  /** Latin-1 view for base64 decoding (base64 text is ASCII, so latin1 is exact and the cheapest decode). */
  ascii(): string {
    return this.body.toString('latin1', this.start, this.end);
  }
  toString(): string {
    return this.body.toString('utf8', this.start, this.end);
  }
}

/** Strings shorter than this are left to JSON.parse: extracting them costs more than it saves. */
export const RAW_STRING_MIN_BYTES = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function escapedAt(body: Buffer, quote: number): boolean {
  let slashes = 0;
  for (let i = quote - 1; i >= 0 && body[i] === BACKSLASH; i--) slashes++;
  return slashes % 2 === 1;
}

/** Bytes of the body pass 1 scans between two turns of the event loop in parseJsonBodyAsync (~2-5 ms). */
export const SCAN_SLICE_BYTES = 8 * 1024 * 1024;

/**
 * Pass 1: the long strings, as [open, close) quote positions. Outside strings JSON has no quote bytes, so
 * unescaped quotes pair up into exactly the document's strings; backslashes are looked up once per run (base64
 * bodies have none at all). Yields after every `slice` bytes scanned so a caller can let other work in.
 */
function* longStrings(body: Buffer, minBytes: number, slice: number): Generator<void, number[]> {
  const ranges: number[] = [];
  let pos = 0;
  let nextPause = slice;
  let nextBackslash = body.indexOf(BACKSLASH);
  for (;;) {
    const open = body.indexOf(QUOTE, pos);
    if (open < 0) break;
    let close = body.indexOf(QUOTE, open + 1);
    while (close >= 0 && escapedAt(body, close)) close = body.indexOf(QUOTE, close + 1);
    if (close < 0) break;
    if (nextBackslash >= 0 && nextBackslash < open) nextBackslash = body.indexOf(BACKSLASH, open);
    const escaped = nextBackslash >= 0 && nextBackslash < close;
    if (close - open - 1 >= minBytes && !escaped) ranges.push(open, close);
    pos = close + 1;
    if (pos >= nextPause) {
      nextPause = pos + slice;
      yield;
    }
  }
  return ranges;
}

/** Long strings pass 2 replaces between two turns of the event loop in parseJsonBodyAsync (~2-4 ms of copying). */
export const REPLACE_SLICE_STRINGS = 2048;

/**
 * Parses a JSON body. Strings of at least `minBytes` bytes that contain no escapes come back as RawString; all else
 * as JSON.parse would return it. Invalid JSON is a 400.
 */
export function parseJsonBody(body: Buffer, minBytes = RAW_STRING_MIN_BYTES): unknown {
  const parse = parseSteps(body, minBytes, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  let step = parse.next();
  while (!step.done) step = parse.next();
  return step.value;
}

/**
 * As parseJsonBody, awaiting `turn` between slices of the work on a large body: the scan (a 40 MB write scans in ~5
 * slices), the copy without its long strings (one slice per REPLACE_SLICE_STRINGS strings) and the JSON.parse of
 * what remains, so no single turn holds the event loop for the whole body.
 */
export async function parseJsonBodyAsync(
  body: Buffer,
  turn: () => Promise<void>,
  minBytes = RAW_STRING_MIN_BYTES,
): Promise<unknown> {
  const parse = parseSteps(body, minBytes, SCAN_SLICE_BYTES, REPLACE_SLICE_STRINGS);
  let step = parse.next();
  while (!step.done) {
    await turn();
    step = parse.next();
  }
  return step.value;
}

/** Pass 1 then pass 2, yielding between slices. */
function* parseSteps(
  body: Buffer,
  minBytes: number,
  scanSlice: number,
  replaceSlice: number,
): Generator<void, unknown> {
  const ranges = yield* longStrings(body, minBytes, scanSlice);
  return yield* parseWithout(body, ranges, replaceSlice);
}

/**
 * Pass 2: JSON.parse of the body without its long strings, each replaced by a marker, then the strings put back.
 * Yields after every `slice` strings replaced, and before the JSON.parse.
 */
function* parseWithout(body: Buffer, ranges: number[], slice: number): Generator<void, unknown> {
  let value: unknown;
  const raws: RawString[] = [];
  // A per-request marker: a short string in the body cannot be mistaken for a placeholder.
  const marker = `\u0000${randomBytes(6).toString('hex')}:`;
  try {
    if (ranges.length === 0) value = JSON.parse(body.toString('utf8'));
    else {
      const markerJson = `"\\u0000${marker.slice(1)}`;
      let size = body.length;
      for (let k = 0; k < ranges.length; k += 2)
        size -= ranges[k + 1] - ranges[k] + 1 - (markerJson.length + 8);
      const rest = Buffer.allocUnsafe(Math.max(size, 0));
      let out = 0;
      let copied = 0;
      for (let k = 0; k < ranges.length; k += 2) {
        const open = ranges[k];
        const close = ranges[k + 1];
        out += body.copy(rest, out, copied, open);
        out += rest.write(`${markerJson}${raws.length}"`, out, 'latin1');
        raws.push(new RawString(body, open + 1, close));
        copied = close + 1;
        if (raws.length % slice === 0) yield;
      }
      out += body.copy(rest, out, copied);
      yield;
      value = JSON.parse(rest.toString('utf8', 0, out));
    }
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
  return raws.length === 0 ? value : restore(value, marker, raws);
}

function restore(value: unknown, marker: string, raws: RawString[]): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(marker)) return value;
    return raws[Number(value.slice(marker.length))];
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === 'string' || (item !== null && typeof item === 'object'))
        value[i] = restore(item, marker, raws);
    }
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'string' || (item !== null && typeof item === 'object'))
        record[key] = restore(item, marker, raws);
    }
  }
  return value;
}

/** Turns any RawString inside a JSON value back into a string: for parts of a body where no vector is expected. */
export function materialize(value: unknown): unknown {
  if (value instanceof RawString) return value.toString();
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (typeof value[i] === 'object') value[i] = materialize(value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record))
      if (typeof record[key] === 'object') record[key] = materialize(record[key]);
  }
  return value;
}
