// A namespace's vector column plus the rows that have no vector in it (written before the column existed, or null):
// those rows are zeros in the engine and are skipped by every search through the dead set.
import { hasBit, newBitset, resizedCopy, setBit, setRange } from '../vector/bitset';
import type { RowBitset, VectorColumn } from '../vector/types';

export interface VectorSlot {
  column: VectorColumn;
  missing: RowBitset;
  missingCount: number;
}

/** A slot for a column created when the namespace already has `rows` rows: they get zero vectors, marked missing. */
export function createSlot(column: VectorColumn, rows: number): VectorSlot {
  const slot: VectorSlot = { column, missing: newBitset(rows + 1024), missingCount: rows };
  if (rows > 0) {
    column.append(new Float32Array(rows * column.dims));
    setRange(slot.missing, 0, rows);
  }
  return slot;
}

export function markMissing(slot: VectorSlot, row: number): void {
  if (slot.missing.length * 32 <= row)
    slot.missing = resizedCopy(slot.missing, Math.ceil((row + 1) * 1.5) + 1024);
  setBit(slot.missing, row);
  slot.missingCount++;
}

export function isMissing(slot: VectorSlot, row: number): boolean {
  return hasBit(slot.missing, row);
}
