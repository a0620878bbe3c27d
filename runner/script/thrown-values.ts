// k6 logs a thrown value that is not an Error (`throw 'no token'`, `throw { code: 1 }`) with the stack of the throw,
// since its JS engine records one for every exception; V8 records stacks only in Error objects, so such a value
// reached the log as a bare string with no file:line. The bundle's `throw x` statements become
// `throw THROWN_GLOBAL(x)`, which returns x unchanged after noting where it was thrown (runner/vu/script-stack.ts), and
// the bundle's inline source map is shifted to match, so every other stack frame still maps to the script's lines.
import { parse } from 'acorn';
import type * as ES from 'estree';

/** The realm global the marked throws call (installed by runner/vu/realm.ts). */
export const THROWN_GLOBAL = '__bench_thrown';

interface Insertion {
  at: number;
  text: string;
}

/** True for `new XxxError(...)`: certainly an Error, so left alone (no cost, no shift). */
function certainlyError(node: ES.Node): boolean {
  return (
    node.type === 'NewExpression' && node.callee.type === 'Identifier' && /Error$/.test(node.callee.name)
  );
}

function throwInsertions(code: string, sourceType: 'module' | 'script'): Insertion[] {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType, allowHashBang: true }) as unknown as ES.Node;
  const out: Insertion[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      for (const child of node) stack.push(child);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const n = node as ES.Node & { start: number; end: number };
    if (n.type === 'ThrowStatement' && !certainlyError(n.argument)) {
      const arg = n.argument as ES.Node & { start: number; end: number };
      out.push({ at: arg.start, text: `${THROWN_GLOBAL}(` }, { at: arg.end, text: ')' });
    }
    for (const key of Object.keys(n)) {
      if (key === 'loc' || key === 'range') continue;
      const child = (n as unknown as Record<string, unknown>)[key];
      if (child && typeof child === 'object') stack.push(child);
    }
  }
  // Stable order: an argument's `)` and a nested throw's insertions can share a position (never in practice).
  return out.sort((a, b) => a.at - b.at);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const c of segment) {
    const digit = B64_INDEX.get(c) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function encodeVlq(values: number[]): string {
  let out = '';
  for (const v of values) {
    let rest = v < 0 ? (-v << 1) | 1 : v << 1;
    do {
      let digit = rest & 31;
      rest >>>= 5;
      if (rest > 0) digit |= 32;
      out += B64[digit];
    } while (rest > 0);
  }
  return out;
}

/**
 * The `mappings` of a source map whose generated code got `insertions` (no newlines in them): each segment's
 * generated column moves right by the text inserted before it on its line. Only the first field of each segment
 * (the generated column, relative within a line) changes, so the other fields are copied as they are.
 */
function shiftMappings(mappings: string, code: string, insertions: readonly Insertion[]): string {
  // Insertions per generated line, as [column, length].
  const perLine = new Map<number, Array<[number, number]>>();
  let line = 0;
  let lineStart = 0;
  let scanned = 0;
  for (const ins of insertions) {
    for (; scanned < ins.at; scanned++)
      if (code.charCodeAt(scanned) === 10) {
        line++;
        lineStart = scanned + 1;
      }
    const list = perLine.get(line) ?? [];
    list.push([ins.at - lineStart, ins.text.length]);
    perLine.set(line, list);
  }
  return mappings
    .split(';')
    .map((lineMappings, l) => {
      const shifts = perLine.get(l);
      if (!shifts || lineMappings === '') return lineMappings;
      let column = 0;
      let shiftedPrevious = 0;
      return lineMappings
        .split(',')
        .map((segment) => {
          const fields = decodeVlq(segment);
          column += fields[0];
          let moved = 0;
          for (const [at, length] of shifts) if (at <= column) moved += length;
          const shifted = column + moved;
          fields[0] = shifted - shiftedPrevious;
          shiftedPrevious = shifted;
          return encodeVlq(fields);
        })
        .join(',');
    })
    .join(';');
}

const INLINE_MAP = /\/\/# sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)\s*$/;

/** The bundle with its throws marked and its inline source map shifted to match. */
export function markThrows(code: string, sourceType: 'module' | 'script'): string {
  const insertions = throwInsertions(code, sourceType);
  if (insertions.length === 0) return code;
  const parts: string[] = [];
  let from = 0;
  for (const ins of insertions) {
    parts.push(code.slice(from, ins.at), ins.text);
    from = ins.at;
  }
  parts.push(code.slice(from));
  const edited = parts.join('');
  const match = INLINE_MAP.exec(edited);
  if (!match) return edited;
  const map = JSON.parse(Buffer.from(match[1], 'base64').toString('utf8')) as { mappings: string };
  map.mappings = shiftMappings(map.mappings, code, insertions);
  const encoded = Buffer.from(JSON.stringify(map)).toString('base64');
  return `${edited.slice(0, match.index)}//# sourceMappingURL=data:application/json;base64,${encoded}\n`;
}
