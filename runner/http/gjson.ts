// res.json(selector): the subset of GJSON path syntax (github.com/tidwall/gjson, which k6 uses) that bench supports,
// evaluated on an already-parsed JSON value. Pure.
//
// Supported:  a.b.c          object keys, separated by dots (`\.` escapes a dot, `\*` `\?` escape wildcards)
//             items.0        array index
//             items.#        array length
//             items.#.name   the `name` of every element (elements without it are skipped)
//             na*e, n?me     wildcard keys (`*` any run, `?` one character): the first matching key
//             items.#(k==v)  first element whose `k` compares true; `#(...)#` every such element; operators
//                            == != < <= > >= % (glob match) !% ; v is a number, "string", true, false or null;
//                            `#(==v)` compares the elements themselves; `#(k)` tests that `k` exists
// Not supported (throws): modifiers (`@reverse`...), pipes (`|`), multipaths (`[a,b]`, `{a,b}`), `..` JSON lines.
// A path that matches nothing returns undefined, as k6 does.

export class UnsupportedSelectorError extends Error {
  override name = 'UnsupportedSelectorError';
}

/** Splits on unescaped dots, keeping `#(...)` queries (which may contain dots) whole. */
export function splitPath(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  let inString = false;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '\\' && i + 1 < path.length) {
      current += c + path[i + 1];
      i++;
      continue;
    }
    if (depth > 0 && c === '"') inString = !inString;
    if (!inString) {
      if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    if (c === '.' && depth === 0 && !inString) {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts;
}

function unescapePart(part: string): string {
  return part.replace(/\\(.)/g, '$1');
}

function hasWildcard(part: string): boolean {
  return /(^|[^\\])[*?]/.test(part);
}

/** GJSON-style glob: `*` any run of characters, `?` exactly one; backslash escapes. */
export function globMatch(pattern: string, text: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      re += pattern[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    } else if (c === '*') re += '[\\s\\S]*';
    else if (c === '?') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`${re}$`).test(text);
}

type Query = { key: string; op: string | undefined; value: unknown; all: boolean };

const QUERY = /^#\((.*)\)(#?)$/;
const OPS = ['==', '!=', '<=', '>=', '!%', '<', '>', '%'];

/** Position and text of the first comparison operator outside nested parentheses and strings. */
function findOperator(body: string): { at: number; op: string } | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '"') inString = !inString;
    if (inString) continue;
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (depth === 0) {
      for (const op of OPS) if (body.startsWith(op, i)) return { at: i, op };
    }
  }
  return undefined;
}

function parseQuery(part: string): Query | undefined {
  const m = QUERY.exec(part);
  if (!m) return undefined;
  const body = m[1];
  const found = findOperator(body);
  if (!found) return { key: body.trim(), op: undefined, value: undefined, all: m[2] === '#' };
  const key = body.slice(0, found.at).trim();
  const raw = body.slice(found.at + found.op.length).trim();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new UnsupportedSelectorError(
      `invalid value ${raw} in query ${part}: use a number, "string", true, false or null`,
    );
  }
  return { key, op: found.op, value, all: m[2] === '#' };
}

function compare(actual: unknown, op: string, expected: unknown): boolean {
  switch (op) {
    case '==':
      return actual === expected;
    case '!=':
      return actual !== expected;
    case '%':
      return typeof actual === 'string' && typeof expected === 'string' && globMatch(expected, actual);
    case '!%':
      return typeof actual === 'string' && typeof expected === 'string' && !globMatch(expected, actual);
  }
  if (typeof actual === 'number' && typeof expected === 'number') {
    if (op === '<') return actual < expected;
    if (op === '<=') return actual <= expected;
    if (op === '>') return actual > expected;
    if (op === '>=') return actual >= expected;
  }
  if (typeof actual === 'string' && typeof expected === 'string') {
    if (op === '<') return actual < expected;
    if (op === '<=') return actual <= expected;
    if (op === '>') return actual > expected;
    if (op === '>=') return actual >= expected;
  }
  return false;
}

function matchesQuery(element: unknown, q: Query): boolean {
  const target = q.key === '' ? element : get(element, q.key);
  if (q.op === undefined) return target !== undefined;
  return compare(target, q.op, q.value);
}

function step(value: unknown, part: string, rest: string[]): unknown {
  if (
    part.startsWith('@') ||
    part.includes('|') ||
    part.startsWith('[') ||
    part.startsWith('{') ||
    part === ''
  ) {
    throw new UnsupportedSelectorError(
      `selector part "${part}" is not supported by bench's res.json(): see runner/http/gjson.ts for the supported GJSON subset`,
    );
  }
  if (Array.isArray(value)) {
    if (part === '#') {
      if (rest.length === 0) return value.length;
      return value.map((el) => walk(el, rest)).filter((v) => v !== undefined);
    }
    const q = parseQuery(part);
    if (q) {
      if (q.all) {
        const hits = value.filter((el) => matchesQuery(el, q));
        return rest.length === 0 ? hits : hits.map((el) => walk(el, rest)).filter((v) => v !== undefined);
      }
      const hit = value.find((el) => matchesQuery(el, q));
      return hit === undefined ? undefined : walk(hit, rest);
    }
    if (/^\d+$/.test(part)) return walk(value[Number(part)], rest);
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (hasWildcard(part)) {
      for (const key of Object.keys(obj)) if (globMatch(part, key)) return walk(obj[key], rest);
      return undefined;
    }
    const key = unescapePart(part);
    return Object.hasOwn(obj, key) ? walk(obj[key], rest) : undefined;
  }
  return undefined;
}

function walk(value: unknown, parts: string[]): unknown {
  if (value === undefined) return undefined;
  if (parts.length === 0) return value;
  return step(value, parts[0], parts.slice(1));
}

/** Evaluates a GJSON path on a parsed JSON value. */
export function get(value: unknown, path: string): unknown {
  return walk(value, splitPath(path));
}
