// JSON going out: response bodies (ids above 2^53 are BigInts and must leave as plain digits) and the short
// renderings of request values that error messages quote (bounded, so a 10,000-deep or 1 GB value costs nothing).
import { randomBytes } from 'node:crypto';
import { RawString } from './json-body';

/** JSON.stringify, except that BigInts are written as JSON numbers with all their digits. */
export function stringifyJson(value: unknown): string {
  try {
    // The common case has no BigInt at all: one plain pass, no replacer.
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
  }
  // A marker no client string can contain once escaped (JSON.stringify writes U+0000 as \u0000).
  const mark = `\u0000${randomBytes(6).toString('hex')}`;
  const text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? `${mark}${v}` : v));
  const quoted = JSON.stringify(mark).slice(0, -1);
  return text.replaceAll(new RegExp(`${escapeRegExp(quoted)}(-?\\d+)"`, 'g'), '$1');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A scalar as JSON text, or null for arrays and objects. */
function scalarText(v: unknown, max: number): string | null {
  if (v === undefined) return 'undefined';
  if (v === null || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number')
    return Number.isFinite(v) ? String(v) : v > 0 ? 'Infinity' : v < 0 ? '-Infinity' : 'NaN';
  if (typeof v === 'string') return JSON.stringify(v.slice(0, max));
  if (v instanceof RawString)
    return JSON.stringify(v.body.toString('utf8', v.start, Math.min(v.end, v.start + max * 4)).slice(0, max));
  if (typeof v === 'object') return null;
  return String(v);
}

/** A body's key as a message names it: as it is when it reads as a name, else quoted (`""`, keys with spaces). */
export function fieldName(key: string): string {
  return /^[A-Za-z_$][\w$.-]*$/.test(key) ? key : JSON.stringify(key);
}

/**
 * A request value as JSON for an error message, cut at `max` characters. Never throws and never walks more than it
 * prints: BigInts keep their digits, non-finite numbers say so, long strings and deep nesting are cut.
 */
export function describeJson(value: unknown, max = 60): string {
  let out = '';
  const walk = (v: unknown): void => {
    if (out.length >= max) return;
    const scalar = scalarText(v, max);
    if (scalar !== null) {
      out += scalar;
    } else if (Array.isArray(v)) {
      out += '[';
      for (let i = 0; i < v.length && out.length < max; i++) {
        if (i > 0) out += ',';
        walk(v[i]);
      }
      out += ']';
    } else {
      out += '{';
      let first = true;
      for (const key in v as Record<string, unknown>) {
        if (out.length >= max) break;
        out += `${first ? '' : ','}${JSON.stringify(key.slice(0, max))}:`;
        first = false;
        walk((v as Record<string, unknown>)[key]);
      }
      out += '}';
    }
  };
  walk(value);
  return out.length > max ? `${out.slice(0, max)}...` : out;
}
