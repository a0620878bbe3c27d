// The items one execution segment owns (./segments.ts makes them): a pattern that repeats every `lcd` items. Kept
// apart from segments.ts (and its rational numbers) because every VU thread reads it for each iteration number.

/** The items of one segment, as a repeating pattern: item k is `floor(k / n)·lcd + positions[k mod n]`. */
export interface Stripe {
  lcd: number;
  /** Ascending positions in [0, lcd) this segment owns; n = positions.length. */
  positions: number[];
}

/** The whole test as one stripe (no segments). */
export const WHOLE: Stripe = { lcd: 1, positions: [0] };

/** The k-th (0-based) item a stripe owns, as its number in the whole test. */
export function stripeItem(s: Stripe, k: number): number {
  const n = s.positions.length;
  return Math.floor(k / n) * s.lcd + s.positions[k % n];
}

/** How many of the items 0…value−1 a stripe owns: its share of `value`. */
export function stripeCount(s: Stripe, value: number): number {
  const whole = Math.floor(value / s.lcd) * s.positions.length;
  const rest = value % s.lcd;
  let part = 0;
  while (part < s.positions.length && s.positions[part] < rest) part++;
  return whole + part;
}
