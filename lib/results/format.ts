// Number formats both experiments' renderers share (Markdown, console and the merged report), with "—" wherever a
// figure is unknown. Pure.
import { formatBytes } from '../../core/sizes';

/**
 * `digits` decimals, rounded half up on the double value (Math.round), not as toFixed rounds the exact binary
 * value: jq (scripts/jq/) can compute the same digits, so its tables equal the Markdown's.
 */
export function roundedFixed(value: number, digits: number): string {
  const scale = 10 ** digits;
  return (Math.round(value * scale) / scale).toFixed(digits);
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  return Number.isInteger(ms) ? `${ms}ms` : `${roundedFixed(ms, 1)}ms`;
}

export function formatPercent(rate: number): string {
  if (rate === 0) return '0%';
  const pct = rate * 100;
  return `${pct < 0.1 ? pct.toPrecision(1) : roundedFixed(pct, 1)}%`;
}

/** "3.5 MiB" (core/sizes.ts); "—" when unknown. */
export function formatBytesOrDash(bytes: number | null): string {
  return bytes === null ? '—' : formatBytes(bytes);
}

export function formatQps(qps: number): string {
  return roundedFixed(qps, 1);
}

/** `digits` decimals and an optional unit: (3088, 1) -> "3088.0", (0.5, 2, ' s') -> "0.50 s"; "—" when unknown. */
export function formatFixed(value: number | null, digits: number, unit = ''): string {
  return value === null ? '—' : `${value.toFixed(digits)}${unit}`;
}

/** "429: 812, 5xx: 3" (empty when there were no errors). */
export function formatErrorsByStatus(byStatus: Record<string, number>): string {
  return Object.entries(byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
}
