// The global `crypto` (WebCrypto) of a hosted VU's vm context. Node's SubtleCrypto accepts an ArrayBuffer only when
// its prototype is the thread's own ArrayBuffer.prototype, so a buffer the script made in its vm context ("3rd argument
// is not instance of ArrayBuffer, Buffer, TypedArray, or DataView") was refused where k6 takes it. Views pass (Node
// checks them with ArrayBuffer.isView, which works across realms), so a foreign ArrayBuffer becomes a view of itself:
// no copy, the same bytes.
import { webcrypto as nodeWebcrypto } from 'node:crypto';
import { types } from 'node:util';

type WebCrypto = typeof nodeWebcrypto;
type Subtle = WebCrypto['subtle'];

const SUBTLE_METHODS = [
  'encrypt',
  'decrypt',
  'sign',
  'verify',
  'digest',
  'generateKey',
  'deriveKey',
  'deriveBits',
  'importKey',
  'exportKey',
  'wrapKey',
  'unwrapKey',
] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  // A vm context's Object.prototype is not this thread's: a plain object is one whose prototype's prototype is null.
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/** An argument as Node's WebCrypto accepts it: foreign ArrayBuffers (top level or in an algorithm dict) as views. */
function hostBufferSource(value: unknown, depth = 0): unknown {
  if (types.isArrayBuffer(value) && !(value instanceof ArrayBuffer)) return new Uint8Array(value);
  if (depth === 0 && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = hostBufferSource(v, depth + 1);
    return out;
  }
  return value;
}

/** A `crypto` global for a vm context, backed by this thread's WebCrypto. */
export function crossRealmCrypto(webcrypto: WebCrypto = nodeWebcrypto): WebCrypto {
  const subtle = webcrypto.subtle;
  const wrapped: Record<string, unknown> = {};
  for (const name of SUBTLE_METHODS) {
    const method = subtle[name] as (...args: unknown[]) => unknown;
    wrapped[name] = (...args: unknown[]) =>
      method.apply(
        subtle,
        args.map((a) => hostBufferSource(a)),
      );
  }
  return {
    subtle: wrapped as unknown as Subtle,
    getRandomValues: ((array) => webcrypto.getRandomValues(array)) as WebCrypto['getRandomValues'],
    randomUUID: () => webcrypto.randomUUID(),
  } as WebCrypto;
}
