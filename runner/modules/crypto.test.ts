import { createHash as nodeHash, createHmac as nodeHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  BlockHmac,
  createCryptoModule,
  createHash,
  createHMAC,
  encodeDigest,
  hexEncode,
  hmac,
  randomBytes,
} from './crypto';
import { Md4 } from './crypto-md4';

type Digest = (input: unknown, enc: unknown) => string | ArrayBuffer;
const m = createCryptoModule() as unknown as Record<string, Digest>;

describe('k6/crypto', () => {
  it.each([
    ['', '31d6cfe0d16ae931b73c59d7e0c089c0'],
    ['a', 'bde52cb31de33e46245e05fbdbd6fb24'],
    ['abc', 'a448017aaf21d8525fc10ae87aa6729d'],
    ['message digest', 'd9130a8164549fe818874806e1c7014b'],
    ['abcdefghijklmnopqrstuvwxyz', 'd79e1c308aa5bbcdeea8ed63df412da9'],
    ['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', '043f8582f241db351ce627e153e7f0e4'],
    [
      '12345678901234567890123456789012345678901234567890123456789012345678901234567890',
      'e33b4ddc9c38f2199c3e7b164fcc0536',
    ],
  ])('md4(%j) matches RFC 1320', (input, hex) => {
    expect(m.md4(input, 'hex')).toBe(hex);
  });

  it('md4 is the same fed in pieces', () => {
    const data = new TextEncoder().encode('x'.repeat(200));
    const h = new Md4();
    h.update(data.subarray(0, 63)).update(data.subarray(63, 130)).update(data.subarray(130));
    expect(Buffer.from(h.digest()).toString('hex')).toBe(m.md4('x'.repeat(200), 'hex'));
  });

  it.each([
    ['md5', '900150983cd24fb0d6963f7d28e17f72'],
    ['sha1', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    ['sha256', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['sha512_224', '4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa'],
    ['sha512_256', '53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23'],
    ['ripemd160', '8eb208f7e05d987a9b044a8e98c6b087f15a0bfc'],
  ])('%s("abc")', (alg, hex) => {
    expect(m[alg]('abc', 'hex')).toBe(hex);
    expect(createHash(alg).digest).toBeTypeOf('function');
  });

  it('output encodings', () => {
    const d = new Uint8Array([0xfb, 0xff, 0x01]);
    expect(encodeDigest(d, 'hex')).toBe('fbff01');
    expect(encodeDigest(d, 'base64')).toBe('+/8B');
    expect(encodeDigest(new Uint8Array([0xfb, 0xff]), 'base64url')).toBe('-_8=');
    expect(encodeDigest(new Uint8Array([0xfb, 0xff]), 'base64rawurl')).toBe('-_8');
    expect([...new Uint8Array(encodeDigest(d, 'binary') as ArrayBuffer)]).toEqual([0xfb, 0xff, 0x01]);
    expect(() => encodeDigest(d, 'latin1')).toThrow('invalid output encoding "latin1"');
  });

  it('hmac matches RFC 4231 case 2 and works for md4', () => {
    expect(hmac('sha256', 'Jefe', 'what do ya want for nothing?', 'hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    // The HMAC construction used for MD4, checked over MD5 against node's HMAC (short and long keys).
    for (const key of ['key', 'k'.repeat(100)]) {
      const mine = BlockHmac.keyed(() => nodeHash('md5'), Buffer.from(key));
      mine.update(Buffer.from('The quick brown fox'));
      expect(Buffer.from(mine.digest()).toString('hex')).toBe(
        nodeHmac('md5', key).update('The quick brown fox').digest('hex'),
      );
    }
    expect(hmac('md4', 'key', 'The quick brown fox jumps over the lazy dog', 'hex')).toMatch(
      /^[0-9a-f]{32}$/,
    );
    const h = createHMAC('sha256', 'Jefe');
    h.update('what do ya ');
    h.update('want for nothing?');
    expect(h.digest('hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('incremental hashers equal one-shot ones', () => {
    const h = createHash('sha1');
    h.update('a');
    h.update(new TextEncoder().encode('bc').buffer);
    expect(h.digest('hex')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });

  // k6's hasher is Go's hash.Hash: Sum does not end it, so a script may digest twice (k6's examples/crypto.js prints
  // hex then base64) and keep writing after a digest.
  it.each(['md4', 'md5', 'sha1', 'sha256', 'sha384', 'sha512', 'sha512_224', 'sha512_256', 'ripemd160'])(
    '%s hashers and HMACs digest again and go on after a digest',
    (alg) => {
      const h = createHash(alg);
      h.update('some other ');
      const first = h.digest('hex');
      expect(h.digest('hex')).toBe(first);
      expect(h.digest('base64')).toBe(Buffer.from(first as string, 'hex').toString('base64'));
      expect(first).toBe(m[alg]('some other ', 'hex'));
      h.update('text');
      expect(h.digest('hex')).toBe(m[alg]('some other text', 'hex'));

      const mac = createHMAC(alg, 'k'.repeat(200));
      mac.update('some other ');
      const macFirst = mac.digest('hex');
      expect(mac.digest('hex')).toBe(macFirst);
      expect(macFirst).toBe(hmac(alg, 'k'.repeat(200), 'some other ', 'hex'));
      mac.update('text');
      expect(mac.digest('hex')).toBe(hmac(alg, 'k'.repeat(200), 'some other text', 'hex'));
    },
  );

  it.each(['md5', 'sha1', 'sha256', 'sha384', 'sha512', 'sha512-224', 'sha512-256', 'ripemd160'])(
    'HMAC over %s equals node:crypto for short and long keys',
    (alg) => {
      const k6Name = alg.replace('-', '_');
      for (const key of ['key', 'k'.repeat(64), 'k'.repeat(129)]) {
        expect(hmac(k6Name, key, 'The quick brown fox', 'hex')).toBe(
          nodeHmac(alg, key).update('The quick brown fox').digest('hex'),
        );
      }
    },
  );

  it('unknown algorithms throw naming the supported ones', () => {
    expect(() => createHash('sha3')).toThrow('unsupported algorithm "sha3"; use one of md4, md5');
  });

  it('randomBytes and hexEncode', () => {
    const r = randomBytes(16);
    expect(r).toBeInstanceOf(ArrayBuffer);
    expect(r.byteLength).toBe(16);
    expect(() => randomBytes(-1)).toThrow('non-negative integer');
    expect(hexEncode('ab')).toBe('6162');
    expect(hexEncode(new Uint8Array([1, 255]).buffer)).toBe('01ff');
  });
});
