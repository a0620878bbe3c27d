// Aggregation per metric type: counter sums, gauge keeps the last value (and min/max), rate counts non-zero
// values, trend keeps every value for exact percentiles (linear interpolation at p·(n−1), as k6).

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
export type ValueType = 'default' | 'time' | 'data';

interface Sink {
  add(value: number): void;
  /** Number of samples received. */
  readonly samples: number;
}

export class CounterSink implements Sink {
  count = 0;
  samples = 0;
  add(value: number): void {
    this.count += value;
    this.samples++;
  }
  /** count ÷ elapsed seconds; NaN when no time elapsed. */
  rate(elapsedMs: number): number {
    return elapsedMs > 0 ? this.count / (elapsedMs / 1000) : Number.NaN;
  }
}

export class GaugeSink implements Sink {
  value = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  samples = 0;
  add(value: number): void {
    this.value = value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    this.samples++;
  }
}

export class RateSink implements Sink {
  trues = 0;
  samples = 0;
  add(value: number): void {
    if (value !== 0) this.trues++;
    this.samples++;
  }
  /** trues ÷ total; NaN without samples. */
  get rate(): number {
    return this.samples > 0 ? this.trues / this.samples : Number.NaN;
  }
}

export class TrendSink implements Sink {
  private values = new Float64Array(1024);
  /** values[0, sortedUpTo) are sorted; later ones arrived since the last query. */
  private sortedUpTo = 0;
  samples = 0;
  sum = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;

  add(value: number): void {
    if (this.samples === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.samples++] = value;
    this.sum += value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }

  get avg(): number {
    return this.samples > 0 ? this.sum / this.samples : 0;
  }

  /** The sorted values; sorts only what arrived since the last call and merges it in (O(n) per call). */
  sorted(): Float64Array {
    const n = this.samples;
    if (this.sortedUpTo < n) {
      const tail = this.values.slice(this.sortedUpTo, n).sort();
      const merged = new Float64Array(this.values.length);
      let i = 0;
      let j = 0;
      let k = 0;
      while (i < this.sortedUpTo && j < tail.length)
        merged[k++] = this.values[i] <= tail[j] ? this.values[i++] : tail[j++];
      while (i < this.sortedUpTo) merged[k++] = this.values[i++];
      while (j < tail.length) merged[k++] = tail[j++];
      this.values = merged;
      this.sortedUpTo = n;
    }
    return this.values.subarray(0, n);
  }

  /** p in 0..100; 0 when empty (k6's empty-trend rule). */
  percentile(p: number): number {
    const s = this.sorted();
    if (s.length === 0) return 0;
    const idx = (p / 100) * (s.length - 1);
    const lo = Math.floor(idx);
    const hi = Math.ceil(idx);
    return s[lo] + (s[hi] - s[lo]) * (idx - lo);
  }
}

export function createSink(type: MetricType): CounterSink | GaugeSink | RateSink | TrendSink {
  switch (type) {
    case 'counter':
      return new CounterSink();
    case 'gauge':
      return new GaugeSink();
    case 'rate':
      return new RateSink();
    case 'trend':
      return new TrendSink();
  }
}

export type AnySink = ReturnType<typeof createSink>;
