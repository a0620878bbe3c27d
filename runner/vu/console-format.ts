// console.* arguments -> one log message the way k6 prints them: strings raw, objects as `{ a: 1, b: "x" }`,
// arrays as `[ 1, 2 ]`, functions as `[object Function]`, cycles as `[Circular]`, errors as their string (pure).
import { isArrayBuffer, isError } from '../modules/cross-realm';

function inner(v: unknown, seen: Set<object>): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return '[object Function]';
  if (v === null || typeof v !== 'object') return String(v);
  if (isError(v)) return String(v);
  if (seen.has(v)) return '[Circular]';
  seen.add(v);
  let out: string;
  if (Array.isArray(v)) out = v.length === 0 ? '[]' : `[ ${v.map((x) => inner(x, seen)).join(', ')} ]`;
  else if (isArrayBuffer(v)) out = `ArrayBuffer { byteLength: ${v.byteLength} }`;
  else {
    const entries = Object.entries(v);
    out =
      entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${k}: ${inner(x, seen)}`).join(', ')} }`;
  }
  seen.delete(v);
  return out;
}

export function formatConsoleArgs(args: unknown[]): string {
  return args.map((a) => (typeof a === 'string' ? a : inner(a, new Set()))).join(' ');
}
