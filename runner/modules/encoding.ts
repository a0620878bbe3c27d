// The k6/encoding module (docs/k6-behaviour.md §5.4): base64 in Go's four variants, with Go's strict decoding.
import { isArrayBuffer } from './cross-realm';

/** k6's encoding names -> how Go's encoding/base64 variant writes and reads. */
const VARIANTS = {
  std: { url: false, padded: true },
  rawstd: { url: false, padded: false },
  url: { url: true, padded: true },
  rawurl: { url: true, padded: false },
} as const;

type Variant = (typeof VARIANTS)[keyof typeof VARIANTS];

/** k6 falls back to `std` for an unknown encoding name. */
function variant(name: unknown): Variant {
  return VARIANTS[(typeof name === 'string' ? name : 'std') as keyof typeof VARIANTS] ?? VARIANTS.std;
}

function inputBytes(input: unknown, fn: string): Buffer {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (isArrayBuffer(input)) return Buffer.from(input);
  if (ArrayBuffer.isView(input)) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError(
    `${fn}: input must be a string or an ArrayBuffer, got ${input === null ? 'null' : typeof input}`,
  );
}

export function b64encode(input: unknown, encoding?: unknown): string {
  const v = variant(encoding);
  let out = inputBytes(input, 'b64encode').toString(v.url ? 'base64url' : 'base64');
  // Node's base64url never pads and its base64 always does.
  if (v.url && v.padded) out += '='.repeat((4 - (out.length % 4)) % 4);
  if (!v.url && !v.padded) out = out.replace(/=+$/, '');
  return out;
}

const STD_ALPHABET = /^[A-Za-z0-9+/]*$/;
const URL_ALPHABET = /^[A-Za-z0-9_-]*$/;

/** Go's decoder: line breaks are ignored; padding is required (std/url) or forbidden (raw*); anything else fails. */
function decodeStrict(text: string, v: Variant, encodingName: string): Buffer {
  const clean = text.replace(/[\r\n]/g, '');
  let body = clean;
  if (v.padded) {
    if (clean.length % 4 !== 0)
      throw invalid(encodingName, 'its length is not a multiple of 4 (padding is required)');
    body = clean.replace(/={1,2}$/, '');
  } else if (clean.includes('=')) {
    throw invalid(encodingName, 'padding "=" is not allowed in the raw variants');
  }
  if (body.length % 4 === 1) throw invalid(encodingName, 'its length is impossible for base64');
  if (!(v.url ? URL_ALPHABET : STD_ALPHABET).test(body)) {
    throw invalid(encodingName, `it has characters outside the ${v.url ? 'URL-safe' : 'standard'} alphabet`);
  }
  return Buffer.from(body, v.url ? 'base64url' : 'base64');
}

function invalid(encoding: string, why: string): Error {
  return new Error(`b64decode: the input is not valid base64 (${encoding}): ${why}`);
}

export function b64decode(input: unknown, encoding?: unknown, format?: unknown): ArrayBuffer | string {
  const name = typeof encoding === 'string' && encoding in VARIANTS ? encoding : 'std';
  const text = typeof input === 'string' ? input : inputBytes(input, 'b64decode').toString('latin1');
  const bytes = decodeStrict(text, variant(name), name);
  if (format === 's') return bytes.toString('utf8');
  return new Uint8Array(bytes).buffer;
}

/** The module namespace: named exports plus `default` holding them. */
export function createEncodingModule(): Record<string, unknown> {
  const members = { b64encode, b64decode };
  return { ...members, default: members };
}
