// k6 durations: Go duration strings ("1m30s", "500ms", optional leading "<n>d") and bare numbers (milliseconds)
// to milliseconds, and milliseconds back to Go's printed form ("1m30s", "10m0s", "500ms").

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;

/** Parses a Go duration string (no days); returns undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (s === '') return undefined;
  let total = 0;
  PART.lastIndex = 0;
  while (PART.lastIndex < s.length) {
    const at = PART.lastIndex;
    const m = PART.exec(s);
    if (!m || m.index !== at) return undefined;
    total += Number(m[1]) * UNIT_MS[m[2]];
  }
  return sign * total;
}

/**
 * Parses a k6 duration value: a number or unit-less numeric string is milliseconds; otherwise Go syntax with an
 * optional leading whole-days part ("1d12h"). Throws an Error naming the value when it is not a duration.
 */
export function parseDuration(value: unknown): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`invalid duration ${value}`);
    return value;
  }
  if (typeof value !== 'string')
    throw new Error(`invalid duration ${JSON.stringify(value)}: expected a string like "30s"`);
  const text = value.trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  const days = /^(\d+)d(.*)$/.exec(text);
  if (days) {
    const rest = days[2] === '' ? 0 : parseGoDuration(days[2]);
    if (rest === undefined || rest < 0) throw new Error(`invalid duration "${value}"`);
    return Number(days[1]) * 86_400_000 + rest;
  }
  const ms = parseGoDuration(text);
  if (ms === undefined)
    throw new Error(`invalid duration "${value}": use Go syntax like "500ms", "30s", "1m30s" or "1h"`);
  return ms;
}

function trimFloat(n: number, decimals: number): string {
  return n.toFixed(decimals).replace(/\.?0+$/, '');
}

/** Prints milliseconds the way Go prints a time.Duration: "0s", "500ms", "1.5s", "1m30s", "10m0s", "1h0m0s". */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let v = Math.abs(ms);
  let out: string;
  if (v < 1000) {
    if (v < 1e-3) out = `${trimFloat(v * 1e6, 0)}ns`;
    else if (v < 1) out = `${trimFloat(v * 1e3, 3)}µs`;
    else out = `${trimFloat(v, 6)}ms`;
  } else {
    const h = Math.floor(v / 3_600_000);
    v -= h * 3_600_000;
    const m = Math.floor(v / 60_000);
    v -= m * 60_000;
    const s = `${trimFloat(v / 1000, 9)}s`;
    out = h > 0 ? `${h}h${m}m${s}` : m > 0 ? `${m}m${s}` : s;
  }
  return neg ? `-${out}` : out;
}
