// A filter over a read view -> the bitset of rows it allows. Indexed rows come from attribute postings where a leaf
// is an equality or membership test on an indexed attribute; everything else (the unindexed tail, ranges, globs,
// ids) is evaluated row by row.

import type { AttributeIndex } from '../index/attribute-index';
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

function leafBitset(node: LeafNode, view: CandidateView): RowBitset {
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
