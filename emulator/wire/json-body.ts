// JSON request bodies without materializing their big base64 strings. JSON.parse of a 40 MB upsert and fresh memory
// for its vector strings cost hundreds of ms (docs/engine-measurements.md §2), so long
// escape-free strings stay in the request buffer as RawString and are decoded straight into Float32Arrays where a
// vector is expected; everything else is ordinary JSON.parse on what remains (ids and attributes).
//
// JSON.parse rounds integers above 2^53, and ids are u64. Callers that find a rounded number where an id belongs
// parse again with `exactIntegers`: integer literals of 16 digits and more then come back as BigInts (as numbers
// when they are safe integers). Only those bodies pay for it; the common small-id body is parsed once, as before.
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
const RAW_STRING_MIN_BYTES = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function escapedAt(body: Buffer, quote: number): boolean {
  let slashes = 0;
  for (let i = quote - 1; i >= 0 && body[i] === BACKSLASH; i--) slashes++;
  return slashes % 2 === 1;
}

/** Bytes of the body pass 1 scans between two turns in parseJsonBodyAsync (the turn decides whether to yield). */
export const SCAN_SLICE_BYTES = 1024 * 1024;

/**
 * Pass 1: the long strings, as [open, close) quote positions. Outside strings JSON has no quote bytes, so
 * unescaped quotes pair up into exactly the document's strings; backslashes are looked up once per run (base64
 * bodies have none at all). Yields after every `slice` bytes scanned so a caller can let other work in.
 */
function* longStrings(body: Buffer, minBytes: number, slice: number): Generator<void, number[]> {
  // Object keys stay in the text for JSON.parse (only values are put back): a key is a string followed by ':'.
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
    if (close - open - 1 >= minBytes && !escaped && !isKey(body, close)) ranges.push(open, close);
    pos = close + 1;
    if (pos >= nextPause) {
      nextPause = pos + slice;
      yield;
    }
  }
  return ranges;
}

const COLON = 0x3a;

/** True when the string closing at `close` is an object key (the next non-blank byte is ':'). */
function isKey(body: Buffer, close: number): boolean {
  let i = close + 1;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09))
    i++;
  return body[i] === COLON;
}

/** JSON nesting (arrays and objects) the emulator walks at most; deeper values are a 400, never a stack overflow. */
export const MAX_JSON_DEPTH = 128;

export interface ParseOptions {
  /** Strings shorter than this are left to JSON.parse (RAW_STRING_MIN_BYTES). */
  minBytes?: number;
  /** Integer literals of 2^53 and more come back as BigInts instead of rounded numbers. */
  exactIntegers?: boolean;
}

/** Long strings pass 2 replaces between two turns in parseJsonBodyAsync (the turn decides whether to yield). */
export const REPLACE_SLICE_STRINGS = 256;

/**
 * Parses a JSON body. Strings of at least `minBytes` bytes that contain no escapes come back as RawString; all else
 * as JSON.parse would return it. Invalid JSON is a 400.
 */
export function parseJsonBody(body: Buffer, options: ParseOptions = {}): unknown {
  const parse = parseSteps(body, options, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
  let step = parse.next();
  while (!step.done) step = parse.next();
  return step.value;
}

/**
 * As parseJsonBody, awaiting `turn` between slices of the work on a large body: the scan (1 MB steps), the copy without its long strings (one slice per REPLACE_SLICE_STRINGS strings) and the JSON.parse of
 * what remains, so no single turn holds the event loop for the whole body.
 */
export async function parseJsonBodyAsync(
  body: Buffer,
  turn: () => Promise<void>,
  options: ParseOptions = {},
): Promise<unknown> {
  const parse = parseSteps(body, options, SCAN_SLICE_BYTES, REPLACE_SLICE_STRINGS);
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
  options: ParseOptions,
  scanSlice: number,
  replaceSlice: number,
): Generator<void, unknown> {
  const ranges = yield* longStrings(body, options.minBytes ?? RAW_STRING_MIN_BYTES, scanSlice);
  const value = yield* parseWithout(body, ranges, replaceSlice, options.exactIntegers === true);
  // A body that is one long string holds no vector: as a RawString it would pass for an object (with a `body` key).
  return value instanceof RawString ? value.toString() : value;
}

/**
 * Strings (skipped whole, so digits inside them are never touched) or an integer literal of 16 digits and more that
 * is neither part of a longer number nor followed by a fraction or an exponent.
 */
const BIG_INTEGER = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])(-?[1-9]\d{15,})(?![\d.eE])/g;

/** The text with every big integer literal replaced by a marker string `"<marker>n<digits>"`. */
function markBigIntegers(text: string, markerJson: string): { text: string; count: number } {
  let count = 0;
  const out = text.replace(BIG_INTEGER, (match, digits: string | undefined) => {
    if (digits === undefined) return match;
    count++;
    return `${markerJson}n${digits}"`;
  });
  return { text: out, count };
}

/**
 * Pass 2: JSON.parse of the body without its long strings, each replaced by a marker, then the strings put back.
 * Yields after every `slice` strings replaced, and before the JSON.parse.
 */
function* parseWithout(
  body: Buffer,
  ranges: number[],
  slice: number,
  exactIntegers: boolean,
): Generator<void, unknown> {
  let value: unknown;
  const raws: RawString[] = [];
  // A per-request marker: a short string in the body cannot be mistaken for a placeholder.
  const marker = `\u0000${randomBytes(6).toString('hex')}:`;
  const markerJson = `"\\u0000${marker.slice(1)}`;
  let bigIntegers = 0;
  const parse = (text: string) => {
    if (!exactIntegers) return JSON.parse(text);
    const marked = markBigIntegers(text, markerJson);
    bigIntegers = marked.count;
    return JSON.parse(marked.text);
  };
  try {
    if (ranges.length === 0) value = parse(body.toString('utf8'));
    else {
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
      value = parse(rest.toString('utf8', 0, out));
    }
  } catch (error) {
    throw badRequest(`request body is not valid JSON: ${(error as Error).message}`);
  }
  return raws.length === 0 && bigIntegers === 0 ? value : restore(value, marker, raws, 0);
}

function restore(value: unknown, marker: string, raws: RawString[], depth: number): unknown {
  if (typeof value === 'string') {
    if (!value.startsWith(marker)) return value;
    const tail = value.slice(marker.length);
    if (tail.startsWith('n')) {
      const n = BigInt(tail.slice(1));
      return n >= -9007199254740991n && n <= 9007199254740991n ? Number(n) : n;
    }
    return raws[Number(tail)];
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH) throw tooDeep('request body');
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = value[i];
      if (typeof item === 'string' || (item !== null && typeof item === 'object'))
        value[i] = restore(item, marker, raws, depth + 1);
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    if (typeof item === 'string' || (item !== null && typeof item === 'object'))
      record[key] = restore(item, marker, raws, depth + 1);
  }
  return value;
}

function tooDeep(field: string): Error {
  return badRequest(`${field}: nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`);
}

/**
 * A decoded body object before its checks: fields named as in a wire type of lib/turbopuffer-wire.ts, so a parser
 * can only read fields the shared contract declares, values still of any type.
 */
export type Unchecked<T> = { [K in keyof T]-?: unknown };

/**
 * Turns any RawString inside a JSON value back into a string: for parts of a body where no vector is expected.
 * Values nested deeper than MAX_JSON_DEPTH are a 400 naming `field`.
 */
export function materialize(value: unknown, field = 'request body', depth = 0): unknown {
  if (value instanceof RawString) return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_JSON_DEPTH) throw tooDeep(field);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (typeof value[i] === 'object') value[i] = materialize(value[i], field, depth + 1);
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (typeof record[key] === 'object') record[key] = materialize(record[key], field, depth + 1);
  return value;
}
