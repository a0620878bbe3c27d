// The k6/crypto module (docs/k6-behaviour.md §5.5): hashes, HMAC, incremental hashers, randomBytes and hexEncode, over
// node:crypto (MD4 from crypto-md4.ts, which OpenSSL 3 no longer offers by default).

import * as nodeCrypto from 'node:crypto';
import { isArrayBuffer } from './cross-realm';
import { Md4 } from './crypto-md4';

/** k6 algorithm names -> node:crypto names ('md4' is handled by Md4). */
const ALGORITHMS: Record<string, string> = {
  md4: 'md4',
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha512_224: 'sha512-224',
  sha512_256: 'sha512-256',
  ripemd160: 'ripemd160',
};

function algorithm(name: unknown, fn: string): string {
  const found = typeof name === 'string' ? ALGORITHMS[name] : undefined;
  if (!found) {
    throw new Error(
      `${fn}: unsupported algorithm "${String(name)}"; use one of ${Object.keys(ALGORITHMS).join(', ')}`,
    );
  }
  return found;
}

function bytesOf(input: unknown, fn: string): Uint8Array {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (isArrayBuffer(input)) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError(
    `${fn}: input must be a string or an ArrayBuffer, got ${input === null ? 'null' : typeof input}`,
  );
}

/** hex, base64, base64url (padded, as Go's URLEncoding), base64rawurl, binary (ArrayBuffer); anything else throws. */
export function encodeDigest(digest: Uint8Array, encoding: unknown): string | ArrayBuffer {
  const buf = Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength);
  switch (encoding) {
    case 'hex':
      return buf.toString('hex');
    case 'base64':
      return buf.toString('base64');
    case 'base64url': {
      const raw = buf.toString('base64url');
      return raw + '='.repeat((4 - (raw.length % 4)) % 4);
    }
    case 'base64rawurl':
      return buf.toString('base64url');
    case 'binary':
      return new Uint8Array(digest).buffer;
    default:
      throw new Error(
        `invalid output encoding "${String(encoding)}": use hex, base64, base64url, base64rawurl or binary`,
      );
  }
}

/** What createHash/createHMAC return (k6's Hasher). */
export interface Hasher {
  update(input: unknown): void;
  digest(outputEncoding: unknown): string | ArrayBuffer;
}

export interface Engine {
  update(data: Uint8Array): unknown;
  digest(): Uint8Array;
  /** An independent engine in the same state: k6's hashers (Go's hash.Hash) digest without ending the hash. */
  copy(): Engine;
}

/** Block sizes of the hashes HMAC is built over (RFC 2104's B). */
const BLOCK_BYTES: Record<string, number> = {
  sha384: 128,
  sha512: 128,
  'sha512-224': 128,
  'sha512-256': 128,
};

/**
 * HMAC (RFC 2104) over any hash that can be copied: node:crypto's Hmac cannot be copied (k6 allows digest() then more
 * update() calls, as Go's HMAC does), and MD4 is not in node:crypto at all.
 */
export class BlockHmac implements Engine {
  private constructor(
    private readonly newHash: () => Engine,
    private readonly outerKey: Uint8Array,
    private readonly inner: Engine,
  ) {}

  static keyed(newHash: () => Engine, key: Uint8Array, blockBytes = 64): BlockHmac {
    const block = new Uint8Array(blockBytes);
    if (key.length > blockBytes) {
      const h = newHash();
      h.update(key);
      block.set(h.digest());
    } else {
      block.set(key);
    }
    const inner = newHash();
    inner.update(block.map((b) => b ^ 0x36));
    return new BlockHmac(
      newHash,
      block.map((b) => b ^ 0x5c),
      inner,
    );
  }

  update(data: Uint8Array): void {
    this.inner.update(data);
  }

  digest(): Uint8Array {
    const outer = this.newHash();
    outer.update(this.outerKey);
    outer.update(this.inner.copy().digest());
    return outer.digest();
  }

  copy(): Engine {
    return new BlockHmac(this.newHash, this.outerKey, this.inner.copy());
  }
}

function hashEngine(name: string): Engine {
  return name === 'md4' ? new Md4() : nodeCrypto.createHash(name);
}

function hmacEngine(name: string, secret: Uint8Array): Engine {
  return BlockHmac.keyed(() => hashEngine(name), secret, BLOCK_BYTES[name] ?? 64);
}

function hasher(engine: Engine, fn: string): Hasher {
  return {
    update(input: unknown) {
      engine.update(bytesOf(input, `${fn}.update`));
    },
    // Go's hash.Sum, which k6 calls: the digest of what was written so far; the hash goes on (more updates, digests).
    digest(outputEncoding: unknown) {
      return encodeDigest(engine.copy().digest(), outputEncoding);
    },
  };
}

export function createHash(name: unknown): Hasher {
  return hasher(hashEngine(algorithm(name, 'createHash')), 'createHash');
}

export function createHMAC(name: unknown, secret: unknown): Hasher {
  return hasher(hmacEngine(algorithm(name, 'createHMAC'), bytesOf(secret, 'createHMAC')), 'createHMAC');
}

export function hmac(
  name: unknown,
  secret: unknown,
  input: unknown,
  outputEncoding: unknown,
): string | ArrayBuffer {
  const engine = hmacEngine(algorithm(name, 'hmac'), bytesOf(secret, 'hmac'));
  engine.update(bytesOf(input, 'hmac'));
  return encodeDigest(engine.digest(), outputEncoding);
}

function digestWith(name: string) {
  return (input: unknown, outputEncoding: unknown): string | ArrayBuffer => {
    const engine = hashEngine(ALGORITHMS[name]);
    engine.update(bytesOf(input, name));
    return encodeDigest(engine.digest(), outputEncoding);
  };
}

export function randomBytes(size: unknown): ArrayBuffer {
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) {
    throw new TypeError(`randomBytes: size must be a non-negative integer, got ${String(size)}`);
  }
  return new Uint8Array(nodeCrypto.randomBytes(size)).buffer;
}

export function hexEncode(input: unknown): string {
  return Buffer.from(bytesOf(input, 'hexEncode')).toString('hex');
}

/** The module namespace: named exports plus `default` holding them. */
export function createCryptoModule(): Record<string, unknown> {
  const members = {
    md4: digestWith('md4'),
    md5: digestWith('md5'),
    sha1: digestWith('sha1'),
    sha256: digestWith('sha256'),
    sha384: digestWith('sha384'),
    sha512: digestWith('sha512'),
    sha512_224: digestWith('sha512_224'),
    sha512_256: digestWith('sha512_256'),
    ripemd160: digestWith('ripemd160'),
    hmac,
    createHash,
    createHMAC,
    randomBytes,
    hexEncode,
  };
  return { ...members, default: members };
}
