// Reusable large buffers for request bodies and decoded vectors. First touch of fresh memory is costly
// (docs/engine-measurements.md §0): a 40 MB upsert into new memory would stall the event loop far longer than
// reusing a buffer already faulted in.

/** Requests below this use ordinary allocations: small buffers are cheap and pooling them only adds bookkeeping. */
const MIN_POOLED_BYTES = 1 << 20; // 1 MiB

/** Pooled buffers unused for this long are dropped, so an idle emulator gives the memory back. */
export const IDLE_TRIM_MS = 5000;

export class BufferPool {
  private readonly free: Buffer[] = [];
  private pooledBytes = 0;
  private lastUse = 0;
  private trimTimer: NodeJS.Timeout | null = null;

  /** @param maxPooledBytes total capacity kept for reuse; larger releases are dropped to the GC. */
  constructor(private readonly maxPooledBytes = 256 * 2 ** 20) {}

  /** Drops every pooled buffer (also done by itself after IDLE_TRIM_MS without use). */
  trim(): void {
    this.free.length = 0;
    this.pooledBytes = 0;
    if (this.trimTimer) clearTimeout(this.trimTimer);
    this.trimTimer = null;
  }

  private scheduleTrim(): void {
    this.lastUse = Date.now();
    if (this.trimTimer) return;
    const check = () => {
      const idle = Date.now() - this.lastUse;
      if (idle >= IDLE_TRIM_MS) this.trim();
      else this.trimTimer = setTimeout(check, IDLE_TRIM_MS - idle).unref();
    };
    this.trimTimer = setTimeout(check, IDLE_TRIM_MS).unref();
  }

  /**
   * A buffer of exactly `size` bytes (a view of a possibly larger pooled one, 8-byte aligned so Float32Array views
   * work). Give it back with release() once nothing refers to it.
   */
  acquire(size: number): Buffer {
    if (size < MIN_POOLED_BYTES) return Buffer.allocUnsafeSlow(Math.max(size, 8)).subarray(0, size);
    this.lastUse = Date.now();
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      const candidate = this.free[i];
      if (candidate.length >= size && (best < 0 || candidate.length < this.free[best].length)) best = i;
    }
    if (best >= 0) {
      const [buffer] = this.free.splice(best, 1);
      this.pooledBytes -= buffer.length;
      return buffer.subarray(0, size);
    }
    // Powers of two so that bodies of similar size share buffers.
    const capacity = 2 ** Math.ceil(Math.log2(size));
    return Buffer.allocUnsafeSlow(capacity).subarray(0, size);
  }

  /** Returns a buffer from acquire(). Views of one pooled buffer must be released once. */
  release(view: Buffer): void {
    const whole = Buffer.from(view.buffer, 0, view.buffer.byteLength);
    if (whole.length < MIN_POOLED_BYTES || view.byteOffset !== 0) return;
    if (this.pooledBytes + whole.length > this.maxPooledBytes) return;
    if (this.free.some((b) => b.buffer === whole.buffer)) return;
    this.free.push(whole);
    this.pooledBytes += whole.length;
    this.scheduleTrim();
  }

  /** Bytes currently held for reuse (for tests and figures). */
  get retainedBytes(): number {
    return this.pooledBytes;
  }
}
