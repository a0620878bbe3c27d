// Large request bodies of a VU's synchronous calls travel through one SharedArrayBuffer per VU instead of a fresh
// ArrayBuffer transferred per request. V8 counts every ArrayBuffer an isolate receives toward its GC limits, so a VU
// posting 30 MB bodies made the I/O worker (the thread every VU's requests go through) run full mark-compacts many
// times a second (docs/runner-measurements.md §4.1). A buffer shared once costs nothing per request, and strings are
// encoded straight into it (no 30 MB allocation per iteration).
//
// Layout: bytes [0, 8) hold the BUSY word (Int32 at index 0): the VU stores 1 before sending a request whose body is
// in the buffer, the I/O worker stores 0 once undici can no longer read it (exchange finished or cancelled). The body
// starts at byte 8. A VU finding BUSY still set (a body undici has not let go of) switches to a new buffer.

/** Bodies of at least this many bytes go through the shared buffer (smaller ones are cheaper to transfer). */
export const SHARED_BODY_MIN_BYTES = 64 * 1024;

const HEADER_BYTES = 8;
const BUSY = 0;

/** The VU side: owns the buffer, writes bodies into it and tells which buffer the I/O worker must learn about. */
export class SharedBodyBuffer {
  private buffer: SharedArrayBuffer | undefined;
  private flags: Int32Array = new Int32Array(new SharedArrayBuffer(4));
  private bytes: Buffer = Buffer.alloc(0);
  private announced: SharedArrayBuffer | undefined;

  /**
   * Writes a string (as UTF-8, like TextEncoder) or bytes into the buffer, replacing the buffer when it is too small
   * or still in use, and returns the body's byte length.
   */
  write(body: string | Uint8Array): number {
    const length = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;
    const size = this.bytes.byteLength;
    if (!this.buffer || size < length || Atomics.load(this.flags, BUSY) !== 0) {
      // Grow by at least half so bodies that creep up in size do not reallocate every time.
      const capacity = size < length ? Math.max(length, Math.floor(size * 1.5)) : size;
      this.buffer = new SharedArrayBuffer(HEADER_BYTES + capacity);
      this.flags = new Int32Array(this.buffer, 0, 1);
      this.bytes = Buffer.from(this.buffer, HEADER_BYTES, capacity);
    }
    if (typeof body === 'string') this.bytes.write(body, 0, length, 'utf8');
    else this.bytes.set(body, 0);
    return length;
  }

  /** Marks the body as in use by the request about to be sent (also before resending it on a 307/308 hop). */
  markBusy(): void {
    Atomics.store(this.flags, BUSY, 1);
  }

  /** The buffer to send to the I/O worker before the next request that uses it, once per buffer. */
  takeUnannounced(): SharedArrayBuffer | undefined {
    if (this.buffer === this.announced) return undefined;
    this.announced = this.buffer;
    return this.buffer;
  }
}

/** The I/O worker side: a body of `length` bytes in `buffer` and the function that hands it back to the VU. */
export function sharedBodyView(
  buffer: SharedArrayBuffer,
  length: number,
): { body: Buffer; release: () => void } {
  if (length < 0 || HEADER_BYTES + length > buffer.byteLength) {
    throw new RangeError(`shared body of ${length} bytes does not fit its ${buffer.byteLength}-byte buffer`);
  }
  const flags = new Int32Array(buffer, 0, 1);
  return {
    body: Buffer.from(buffer, HEADER_BYTES, length),
    release: () => Atomics.store(flags, BUSY, 0),
  };
}
