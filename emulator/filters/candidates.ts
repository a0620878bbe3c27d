// A filter over a read view -> the bitset of rows it allows. Indexed rows come from attribute postings where a leaf
// is an equality or membership test on an indexed attribute; everything else (the unindexed tail, ranges, globs,
// ids) is evaluated row by row.

import type { AttributeIndex } from '../index/attribute-index';
import { type FtsIndex, termsWithPrefix } from '../index/fts-index';
import { andInPlace, clearBit, hasBit, newBitset, notInPlace, orInPlace, setBit } from '../vector/bitset';
import type { RowBitset } from '../vector/types';
import type { StoredScalar } from '../wire/values';
import { compileFilter, type RowSource } from './evaluate';
import { type FilterNode, isLeaf, type LeafNode } from './parse';

export interface CandidateView {
  /** Rows [0, rows) are visible. */
  rows: number;
  /** Rows [0, indexedRows) are covered by `index`. */
  indexedRows: number;
  dead: RowBitset;
  source: RowSource;
  index: AttributeIndex;
  /** Full-text postings, for token filters; absent: token filters are evaluated row by row. */
  fts?: FtsIndex;
}

/** How a leaf can use postings: the values to look up, and whether the result is then negated. */
function postingsPlan(
  node: LeafNode,
  index: AttributeIndex,
): { values: StoredScalar[]; negate: boolean } | null {
  if (node.operand.kind !== 'value' || node.type === null || node.type.kind === 'vector') return null;
  if (!index.covers(node.attr)) return null;
  const value = node.operand.value;
  const scalarAttr = node.type.kind === 'scalar';
  switch (node.op) {
    case 'Eq':
    case 'NotEq':
      if (!scalarAttr || value === null || Array.isArray(value)) return null;
      return { values: [value], negate: node.op === 'NotEq' };
    case 'In':
    case 'NotIn':
      if (!scalarAttr) return null;
      return { values: value as StoredScalar[], negate: node.op === 'NotIn' };
    case 'Contains':
    case 'NotContains':
      if (value === null || Array.isArray(value)) return null;
      return { values: [value], negate: node.op === 'NotContains' };
    case 'ContainsAny':
    case 'NotContainsAny':
      return { values: value as StoredScalar[], negate: node.op === 'NotContainsAny' };
    default:
      return null;
  }
}

function evaluateRows(node: FilterNode, view: CandidateView, from: number, out: RowBitset): void {
  const predicate = compileFilter(node, view.source);
  const dead = view.dead;
  for (let row = from; row < view.rows; row++) {
    if (hasBit(dead, row)) continue;
    if (predicate(row)) setBit(out, row);
  }
}

/** Rows in [0, view.rows) that pass `node` (dead rows may or may not be set: combine with the dead set). */
export function filterBitset(node: FilterNode, view: CandidateView): RowBitset {
  if (isLeaf(node)) return leafBitset(node, view);
  if (node.op === 'Not') return notInPlace(filterBitset(node.child, view), view.rows);
  const [first, ...rest] = node.children;
  if (!first) {
    const all = newBitset(view.rows);
    return node.op === 'And' ? notInPlace(all, view.rows) : all;
  }
  const acc = filterBitset(first, view);
  for (const child of rest) {
    const bits = filterBitset(child, view);
    if (node.op === 'And') andInPlace(acc, bits);
    else orInPlace(acc, bits);
  }
  return acc;
}

/**
 * A token filter over a full-text index: the indexed rows holding every term (all, sequence) or any of them (any),
 * with the prefix as "some term starting with it"; sequences are then checked on the row's own terms. Rows past the
 * index are evaluated one by one. Null when the attribute has no index built with its current settings.
 */
function tokenBitset(node: LeafNode, view: CandidateView): RowBitset | null {
  const text = node.text;
  const postings = text && view.fts?.postings(node.attr, text.query.config);
  if (!text || !postings) return null;
  const out = newBitset(view.rows);
  const indexed = Math.min(postings.rows, view.rows);
  const { terms, prefix } = text.query;
  const groups: number[][][] = terms.map((term) => {
    const p = postings.terms.get(term);
    return p ? [p.rows] : [];
  });
  if (prefix !== null)
    groups.push(termsWithPrefix(postings, prefix).map((term) => postings.terms.get(term)?.rows ?? []));
  if (groups.length > 0) {
    if (text.mode === 'any') {
      for (const group of groups)
        for (const rows of group) for (const row of rows) if (row < indexed) setBit(out, row);
    } else {
      // Rows in every group: count the groups each row appears in.
      const hits = new Map<number, number>();
      groups.forEach((group, g) => {
        for (const rows of group)
          for (const row of rows) if (row < indexed && (hits.get(row) ?? 0) === g) hits.set(row, g + 1);
      });
      const verify = text.mode === 'sequence' ? compileFilter(node, view.source) : null;
      for (const [row, n] of hits) if (n === groups.length && (!verify || verify(row))) setBit(out, row);
    }
  }
  evaluateRows(node, view, indexed, out);
  return out;
}

function leafBitset(node: LeafNode, view: CandidateView): RowBitset {
  const tokens = tokenBitset(node, view);
  if (tokens) return tokens;
  const out = newBitset(view.rows);
  const plan = postingsPlan(node, view.index);
  const indexed = Math.min(view.indexedRows, view.index.indexedRows, view.rows);
  if (!plan) {
    evaluateRows(node, view, 0, out);
    return out;
  }
  view.index.markRows(node.attr, plan.values, out);
  // Postings may run past the rows this view trusts them for (an eventual view behind the index): clear those.
  for (let row = indexed, end = out.length * 32; row < end; row++) if (hasBit(out, row)) clearBit(out, row);
  const positive = { ...node, op: positiveOp(node.op) } as LeafNode;
  evaluateRows(positive, view, indexed, out);
  return plan.negate ? notInPlace(out, view.rows) : out;
}

function positiveOp(op: string): string {
  return op.startsWith('Not') ? op.slice(3) : op;
}
