// One row against a filter tree: the exact semantics every filter path shares (tail scans, conditional writes,
// delete_by_filter, and the fallback when no attribute index covers a leaf). Pure.
import { analyzerFor } from '../text/analyzer';
import { matchesTokens } from '../text/match';
import type { DocId } from '../wire/ids';
import type { StoredScalar, StoredValue } from '../wire/values';
import { type FilterNode, isLeaf, type LeafNode, type LeafOp, type Operand } from './parse';

export interface RowSource {
  id(row: number): DocId;
  value(attr: string, row: number): StoredValue;
  /** The attribute's values by row, when the source keeps them so (a faster path for scans over many rows). */
  column?(attr: string): readonly (StoredValue | undefined)[] | undefined;
}

/** A reader of one attribute by row: the id, a column array when the source has one, or value(). */
export function attributeReader(source: RowSource, attr: string): (row: number) => StoredValue {
  if (attr === 'id') return (row) => source.id(row);
  if (source.column) {
    const column = source.column(attr);
    if (!column) return () => null;
    return (row) => column[row] ?? null;
  }
  return (row) => source.value(attr, row);
}

/** The incoming document's values, for `{"$ref_new": "attr"}` operands in conditional writes. */
export type RefNew = (attr: string) => StoredValue;

export type RowPredicate = (row: number, refNew?: RefNew) => boolean;

function isNumeric(v: StoredScalar): v is number | bigint {
  return typeof v === 'number' || typeof v === 'bigint';
}

function compare(a: StoredScalar, b: StoredScalar): number | null {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // Ids above 2^53 are BigInts; < and > compare them with numbers exactly.
  if (isNumeric(a) && isNumeric(b)) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return null;
}

function equal(a: StoredValue, b: StoredValue): boolean {
  if (a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => x === b[i]);
  }
  return a === b;
}

/** turbopuffer glob: * any run, ? one character, [abc] / [!abc] classes; anchored at both ends. */
export function globToRegExp(pattern: string, ignoreCase: boolean): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') source += '[\\s\\S]*';
    else if (c === '?') source += '[\\s\\S]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) source += '\\[';
      else {
        let body = pattern.slice(i + 1, end);
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        source += `[${body.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '');
}

function leaf(op: LeafOp, operand: StoredValue, v: StoredValue): boolean {
  switch (op) {
    case 'Eq':
      return equal(v, operand);
    case 'NotEq':
      return !equal(v, operand);
    case 'In':
      return v !== null && !Array.isArray(v) && (operand as StoredScalar[]).includes(v);
    case 'NotIn':
      return v === null || Array.isArray(v) || !(operand as StoredScalar[]).includes(v);
    case 'Lt':
    case 'Lte':
    case 'Gt':
    case 'Gte': {
      // turbopuffer: Lt and Lte match null values; Gt and Gte do not.
      if (v === null) return op === 'Lt' || op === 'Lte';
      if (Array.isArray(v) || operand === null || Array.isArray(operand)) return false;
      const c = compare(v, operand);
      if (c === null) return false;
      return op === 'Lt' ? c < 0 : op === 'Lte' ? c <= 0 : op === 'Gt' ? c > 0 : c >= 0;
    }
    case 'Contains':
    case 'NotContains': {
      const hit = Array.isArray(v) ? v.includes(operand as StoredScalar) : v !== null && v === operand;
      return op === 'Contains' ? hit : !hit;
    }
    case 'ContainsAny':
    case 'NotContainsAny': {
      const wanted = operand as StoredScalar[];
      const hit = Array.isArray(v) ? v.some((x) => wanted.includes(x)) : v !== null && wanted.includes(v);
      return op === 'ContainsAny' ? hit : !hit;
    }
    case 'AnyLt':
    case 'AnyLte':
    case 'AnyGt':
    case 'AnyGte': {
      const items = Array.isArray(v) ? v : v === null ? [] : [v];
      const base = op.slice(3) as 'Lt' | 'Lte' | 'Gt' | 'Gte';
      return items.some((x) => leaf(base, operand, x));
    }
    default:
      return false;
  }
}

function compileLeaf(node: LeafNode, source: RowSource): RowPredicate {
  const { op, attr, operand } = node;
  const read = attributeReader(source, attr);
  if (node.text) {
    const { query, mode } = node.text;
    const analyzer = analyzerFor(query.config);
    return (row) => {
      const v = read(row);
      return v !== null && matchesTokens(analyzer.valueTerms(v), query, mode);
    };
  }
  if (op === 'Glob' || op === 'NotGlob' || op === 'IGlob' || op === 'NotIGlob' || op === 'Regex') {
    const pattern = (operand as Extract<Operand, { kind: 'value' }>).value as string;
    const re =
      op === 'Regex' ? new RegExp(pattern) : globToRegExp(pattern, op === 'IGlob' || op === 'NotIGlob');
    const negate = op === 'NotGlob' || op === 'NotIGlob';
    return (row) => {
      const v = read(row);
      const hit = typeof v === 'string' && re.test(v);
      return negate ? !hit : hit;
    };
  }
  if (operand.kind === 'ref_new') {
    const ref = operand.attr;
    return (row, refNew) => leaf(op, refNew ? refNew(ref) : null, read(row));
  }
  const value = operand.value;
  return (row) => leaf(op, value, read(row));
}

/** Compiles a filter into a row predicate reading values from `source`. */
export function compileFilter(node: FilterNode, source: RowSource): RowPredicate {
  if (isLeaf(node)) return compileLeaf(node, source);
  switch (node.op) {
    case 'And': {
      const parts = node.children.map((c) => compileFilter(c, source));
      return (row, ref) => parts.every((p) => p(row, ref));
    }
    case 'Or': {
      const parts = node.children.map((c) => compileFilter(c, source));
      return (row, ref) => parts.some((p) => p(row, ref));
    }
    case 'Not': {
      const inner = compileFilter(node.child, source);
      return (row, ref) => !inner(row, ref);
    }
  }
}
