// Value formatting shared by every summary renderer (values are truncated, not rounded, as k6 prints them).
import type { ValueType } from '../metrics/sinks';
import type { SummaryMetric } from './data';

function trunc(v: number, decimals: number): string {
  const f = 10 ** decimals;
  const t = Math.trunc(v * f) / f;
  return t.toFixed(decimals).replace(/\.?0+$/, '');
}

/** Plain numbers: up to 6 decimals, trailing zeros dropped. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return trunc(v, 6);
}

/** Rates: trunc(v·10000)/100 with 2 decimals and "%". */
export function formatPercent(v: number): string {
  if (Number.isNaN(v)) return '0.00%';
  return `${(Math.trunc(v * 10000) / 100).toFixed(2)}%`;
}

const SI = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** Bytes in SI units (base 1000), one decimal below 10: "830 B", "4.9 kB", "519 kB". */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let i = 0;
  while (Math.abs(v) >= 1000 && i < SI.length - 1) {
    v /= 1000;
    i++;
  }
  if (i === 0) return `${Math.trunc(v)} B`;
  return `${v < 10 ? trunc(v, 1) : Math.trunc(v)} ${SI[i]}`;
}

/** ms -> "0s", "43.32µs", "140.36ms", "1.23s", "1m2s", "1h2m3s"; or a fixed unit (s|ms|us) with 2 decimals. */
export function formatTime(ms: number, unit = ''): string {
  if (unit === 's') return `${(ms / 1000).toFixed(2)}s`;
  if (unit === 'ms') return `${ms.toFixed(2)}ms`;
  if (unit === 'us') return `${(ms * 1000).toFixed(2)}µs`;
  if (ms === 0) return '0s';
  const a = Math.abs(ms);
  if (a < 1e-3) return `${trunc(ms * 1e6, 2)}ns`;
  if (a < 1) return `${trunc(ms * 1e3, 2)}µs`;
  if (a < 1000) return `${trunc(ms, 2)}ms`;
  if (a < 60_000) return `${trunc(ms / 1000, 2)}s`;
  const totalS = Math.round(ms / 1000);
  const h = Math.floor(totalS / 3600);
  const m = Math.floor((totalS % 3600) / 60);
  const s = totalS % 60;
  return h > 0 ? `${h}h${m}m${s}s` : `${m}m${s}s`;
}

/** A metric value of kind `contains`. */
export function formatValue(v: number, contains: ValueType, timeUnit = ''): string {
  if (contains === 'time') return formatTime(v, timeUnit);
  if (contains === 'data') return formatBytes(v);
  return formatNumber(v);
}

/** A per-second rate of kind `contains`: "6.56109/s", "76 kB/s". */
export function formatRate(perSecond: number, contains: ValueType): string {
  if (contains === 'data') return `${formatBytes(perSecond)}/s`;
  return `${formatNumber(perSecond)}/s`;
}

/** The values part of a metric line, as the compact text summary and the web dashboard print it. */
export function metricValues(m: SummaryMetric, timeUnit: string, trendStats: readonly string[]): string[] {
  const v = m.values;
  switch (m.type) {
    case 'counter':
      return [formatValue(v.count, m.contains, timeUnit), formatRate(v.rate, m.contains)];
    case 'gauge':
      return [
        formatValue(v.value, m.contains, timeUnit),
        `min=${formatValue(v.min, m.contains, timeUnit)}`,
        `max=${formatValue(v.max, m.contains, timeUnit)}`,
      ];
    case 'rate':
      return [formatPercent(v.rate), `${v.passes} out of ${v.passes + v.fails}`];
    case 'trend':
      return trendStats
        .filter((s) => s in v)
        .map((s) => `${s}=${s === 'count' ? formatNumber(v[s]) : formatValue(v[s], m.contains, timeUnit)}`);
  }
}
