// MD4 (RFC 1320) for k6/crypto's md4(): Node 17+ ships OpenSSL 3, which moved MD4 to the legacy provider that Node
// does not load, and no well-kept npm package is worth a dependency for one legacy hash. Correctness is pinned by the
// RFC 1320 test suite in crypto.test.ts. Not for security: k6 scripts use it for compatibility only.

function rotl(x: number, n: number): number {
  return (x << n) | (x >>> (32 - n));
}

/** Incremental MD4 with the same update/digest shape as node:crypto's Hash. */
export class Md4 {
  private readonly state = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476]);
  private readonly block = new Uint8Array(64);
  private blockLength = 0;
  private totalBytes = 0;

  copy(): Md4 {
    const twin = new Md4();
    twin.state.set(this.state);
    twin.block.set(this.block);
    twin.blockLength = this.blockLength;
    twin.totalBytes = this.totalBytes;
    return twin;
  }

  update(data: Uint8Array): this {
    this.totalBytes += data.length;
    let at = 0;
    while (at < data.length) {
      const take = Math.min(64 - this.blockLength, data.length - at);
      this.block.set(data.subarray(at, at + take), this.blockLength);
      this.blockLength += take;
      at += take;
      if (this.blockLength === 64) {
        this.compress(this.block);
        this.blockLength = 0;
      }
    }
    return this;
  }

  digest(): Uint8Array {
    const bits = this.totalBytes * 8;
    const padLength = this.blockLength < 56 ? 56 - this.blockLength : 120 - this.blockLength;
    const tail = new Uint8Array(padLength + 8);
    tail[0] = 0x80;
    const view = new DataView(tail.buffer);
    view.setUint32(padLength, bits >>> 0, true);
    view.setUint32(padLength + 4, Math.floor(bits / 0x100000000), true);
    this.update(tail);
    const out = new Uint8Array(16);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 4; i++) outView.setUint32(i * 4, this.state[i], true);
    return out;
  }

  private compress(block: Uint8Array): void {
    const x = new Uint32Array(16);
    const view = new DataView(block.buffer, block.byteOffset, 64);
    for (let i = 0; i < 16; i++) x[i] = view.getUint32(i * 4, true);
    let [a, b, c, d] = this.state;
    const f = (p: number, q: number, r: number) => (p & q) | (~p & r);
    const g = (p: number, q: number, r: number) => (p & q) | (p & r) | (q & r);
    const h = (p: number, q: number, r: number) => p ^ q ^ r;
    for (const i of [0, 4, 8, 12]) {
      a = rotl((a + f(b, c, d) + x[i]) | 0, 3);
      d = rotl((d + f(a, b, c) + x[i + 1]) | 0, 7);
      c = rotl((c + f(d, a, b) + x[i + 2]) | 0, 11);
      b = rotl((b + f(c, d, a) + x[i + 3]) | 0, 19);
    }
    for (const i of [0, 1, 2, 3]) {
      a = rotl((a + g(b, c, d) + x[i] + 0x5a827999) | 0, 3);
      d = rotl((d + g(a, b, c) + x[i + 4] + 0x5a827999) | 0, 5);
      c = rotl((c + g(d, a, b) + x[i + 8] + 0x5a827999) | 0, 9);
      b = rotl((b + g(c, d, a) + x[i + 12] + 0x5a827999) | 0, 13);
    }
    for (const i of [0, 2, 1, 3]) {
      a = rotl((a + h(b, c, d) + x[i] + 0x6ed9eba1) | 0, 3);
      d = rotl((d + h(a, b, c) + x[i + 8] + 0x6ed9eba1) | 0, 9);
      c = rotl((c + h(d, a, b) + x[i + 4] + 0x6ed9eba1) | 0, 11);
      b = rotl((b + h(c, d, a) + x[i + 12] + 0x6ed9eba1) | 0, 15);
    }
    this.state[0] += a;
    this.state[1] += b;
    this.state[2] += c;
    this.state[3] += d;
  }
}
