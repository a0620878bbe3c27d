// Execution segments (pure): how one test is split between instances without talking to each other, as k6 splits it
// (docs/k6-behaviour.md §2.9). A segment is a fraction (from, to] of the test; a sequence is the chain of segments
// all instances use, covering (0, 1]. Every instance derives its share of each count from the sequence alone.
//
// Striping: with L the least common denominator of the segments' lengths, each run of L consecutive items (VUs,
// iterations, arrival starts) gives segment i exactly length_i·L of them. Item j (0 ≤ j < L) goes to the first segment,
// taken from the longest to the shortest (ties in sequence order), whose next item is due: one that has taken c items
// is due at j when c / length_i ≤ j. Items of one segment are thereby spread out instead of bunched, and the pattern
// repeats every L items. A segment's share of a count n is how many of the items 0…n−1 it owns, so the shares always
// add up to n, and each only grows as n grows.
import Fraction from 'fraction.js';
import { type Stripe, WHOLE } from './stripe';

export { type Stripe, stripeCount, stripeItem, WHOLE } from './stripe';

/** Item owners repeat every `lcd` items; beyond this a sequence is refused rather than planned for minutes. */
const MAX_LCD = 1_000_000;

export interface Segment {
  from: Fraction;
  to: Fraction;
}

/** One fraction written as k6 accepts it: `25%`, `0.25`, `1/4`. */
function parsePoint(text: string, what: string): Fraction {
  const t = text.trim();
  const percent = /^(\d+)%$/.exec(t);
  if (percent) return new Fraction(Number(percent[1]), 100);
  if (/^(\d+(\.\d+)?|\.\d+|\d+\/\d+)$/.test(t) && !/\/0+$/.test(t)) return new Fraction(t);
  throw new Error(
    `${what}: '${text}' is not a percentage, decimal or fraction (write e.g. 25%, 0.25 or 1/4)`,
  );
}

function checkSegment(from: Fraction, to: Fraction, what: string): Segment {
  if (from.compare(to) >= 0)
    throw new Error(`${what}: the start ${from.toFraction()} must be less than the end ${to.toFraction()}`);
  if (to.compare(1) > 0) throw new Error(`${what}: the end ${to.toFraction()} is beyond 1 (the whole test)`);
  return { from, to };
}

/** `--execution-segment`: `from:to`, or one value `to` meaning `0:to`; empty means the whole test. */
export function parseSegment(text: string): Segment {
  const what = `execution segment '${text}'`;
  if (text.trim() === '') return { from: new Fraction(0), to: new Fraction(1) };
  const parts = text.split(':');
  if (parts.length > 2) throw new Error(`${what}: write from:to, e.g. 1/3:2/3`);
  const from = parts.length === 2 ? parsePoint(parts[0], what) : new Fraction(0);
  return checkSegment(from, parsePoint(parts[parts.length - 1], what), what);
}

/** `--execution-segment-sequence`: ascending points `r1,r2,…,rn`, the segments (r1,r2], (r2,r3], … */
export function parseSequence(text: string): Segment[] {
  const what = `execution segment sequence '${text}'`;
  const points = text.split(',').map((p) => parsePoint(p, what));
  if (points.length < 2) throw new Error(`${what}: needs at least 2 points, e.g. 0,1/2,1`);
  return points.slice(1).map((to, i) => checkSegment(points[i], to, what));
}

export function segmentText(s: Segment): string {
  return `${s.from.toFraction()}:${s.to.toFraction()}`;
}

/** A sequence's lengths and which segment owns each item of the repeating pattern. */
class Striping {
  readonly lcd: number;
  /** owner[j]: the segment that owns item j of every run of lcd items. */
  private readonly owner: Int32Array;

  constructor(readonly lengths: Fraction[]) {
    let lcd = 1n;
    for (const l of lengths) {
      const d = l.d;
      let a = lcd;
      let b = d;
      while (b !== 0n) [a, b] = [b, a % b];
      lcd = (lcd / a) * d;
      if (lcd > BigInt(MAX_LCD))
        throw new Error(
          `execution segment sequence: the segments' lengths need a common denominator above ${MAX_LCD}; use simpler fractions (e.g. 1/3 rather than 0.3333)`,
        );
    }
    this.lcd = Number(lcd);
    const normalized = lengths.map((l) => Number((l.n * lcd) / l.d));
    const order = normalized.map((_, i) => i).sort((a, b) => normalized[b] - normalized[a] || a - b);
    const taken = new Array<number>(lengths.length).fill(0);
    this.owner = new Int32Array(this.lcd);
    for (let j = 0; j < this.lcd; j++) {
      // c / (n/lcd) ≤ j  ⇔  c·lcd ≤ j·n; some segment is always due, since the taken counts add up to j.
      const i = order.find((k) => taken[k] * this.lcd <= j * normalized[k]) as number;
      this.owner[j] = i;
      taken[i]++;
    }
  }

  stripe(index: number): Stripe {
    const positions: number[] = [];
    for (let j = 0; j < this.lcd; j++) if (this.owner[j] === index) positions.push(j);
    return { lcd: this.lcd, positions };
  }

  /** Segment `index`'s share of `value` items. */
  scale(index: number, value: number): number {
    let own = 0;
    const rest = value % this.lcd;
    for (let j = 0; j < rest; j++) if (this.owner[j] === index) own++;
    return (
      Math.floor(value / this.lcd) *
        Number((this.lengths[index].n * BigInt(this.lcd)) / this.lengths[index].d) +
      own
    );
  }
}

/**
 * One instance's place in the split: its segment within the sequence. `scale` gives its share of a count, `stripe` the
 * items it owns, `forValue` the split of work that only instances holding VUs can do.
 */
export class ExecutionTuple {
  private readonly striping: Striping;
  private stripeCache: Stripe | undefined;

  private constructor(
    readonly sequence: Segment[],
    readonly index: number,
  ) {
    this.striping = new Striping(sequence.map((s) => s.to.sub(s.from)));
  }

  /**
   * The tuple for `segment` in `sequence` (either may be absent). The sequence is completed to cover 0…1; without one,
   * the segment and the gaps around it make it. The segment must be one of the sequence's segments.
   */
  static of(segment: Segment | undefined, sequence: Segment[] | undefined): ExecutionTuple {
    const seg = segment ?? { from: new Fraction(0), to: new Fraction(1) };
    const full = sequence && sequence.length > 0 ? [...sequence] : [seg];
    if (!full[0].from.equals(0)) full.unshift({ from: new Fraction(0), to: full[0].from });
    const last = full[full.length - 1];
    if (!last.to.equals(1)) full.push({ from: last.to, to: new Fraction(1) });
    const index = full.findIndex((s) => s.from.equals(seg.from) && s.to.equals(seg.to));
    if (index < 0)
      throw new Error(
        `execution segment ${segmentText(seg)} is not one of the sequence's segments (${full.map(segmentText).join(', ')}): give one of them, or a sequence whose points include ${seg.from.toFraction()} and ${seg.to.toFraction()}`,
      );
    return new ExecutionTuple(full, index);
  }

  get segment(): Segment {
    return this.sequence[this.index];
  }

  /** The segment's length: 1 for the whole test. */
  get share(): number {
    return this.segment.to.sub(this.segment.from).valueOf();
  }

  get whole(): boolean {
    return this.sequence.length === 1;
  }

  /** This instance's share of `value` (VUs, iterations). */
  scale(value: number): number {
    return this.whole ? value : this.striping.scale(this.index, value);
  }

  /** The items this instance owns (iteration numbers, VU numbers, arrival starts). */
  stripe(): Stripe {
    if (this.whole) return WHOLE;
    this.stripeCache ??= this.striping.stripe(this.index);
    return this.stripeCache;
  }

  /**
   * The split of work that needs VUs (shared iterations, arrival starts) once `value` VUs are split: segments that get
   * none of them drop out, and each other one gets a length of its share of `value` / `value`, in sequence order, so no
   * work lands on an instance without a VU to do it. Undefined when this instance gets no VU.
   */
  forValue(value: number): ExecutionTuple | undefined {
    if (this.whole) return value > 0 ? this : undefined;
    if (value <= 0 || this.scale(value) === 0) return undefined;
    const segments: Segment[] = [];
    let index = -1;
    let from = new Fraction(0);
    this.sequence.forEach((_, i) => {
      const share = this.striping.scale(i, value);
      if (share === 0) return;
      if (i === this.index) index = segments.length;
      const to = from.add(new Fraction(share, value));
      segments.push({ from, to });
      from = to;
    });
    return new ExecutionTuple(segments, index);
  }
}
