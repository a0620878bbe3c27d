// Document id -> live row. Small non-negative integer ids (what most writers send: 0, 1, 2, ...) live in a dense
// table of fixed 64k-entry chunks: a lookup is two array reads, where a Map lookup at a million entries costs a
// cache miss or two (IdMap.get was the largest item of applying a 10k-row write). Everything else (strings, large or
// negative numbers, BigInts above 2^53, and ids that would leave the table too sparse) goes to many small Maps: one V8 Map with a
// million entries rehashes its whole table into fresh memory when it grows, inside a single set(), an event-loop
// stall in the middle of a write; 256 shards keep every rehash small.
import type { DocId } from '../wire/ids';

const SHARDS = 256;
const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;
/** Ids below this may use the dense table (32,768 chunks at most). */
const DENSE_LIMIT = 2 ** 31;
/** A new chunk (256 KB) is only allocated while chunks stay at most this many plus one per 1,024 ids stored. */
const FREE_CHUNKS = 16;
const IDS_PER_CHUNK = 1024;

function shardOf(id: DocId): number {
  if (typeof id === 'number') return ((id % SHARDS) + SHARDS) % SHARDS;
  if (typeof id === 'bigint') return Number(BigInt.asUintN(8, id));
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

function isDense(id: DocId): id is number {
  return typeof id === 'number' && id >= 0 && id < DENSE_LIMIT && Number.isInteger(id);
}

export class IdMap {
  private readonly shards = Array.from({ length: SHARDS }, () => new Map<DocId, number>());
  /** Dense table: chunk[id & MASK] = row + 1 (0 = absent). */
  private readonly chunks: (Int32Array | undefined)[] = [];
  private chunkCount = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: DocId): number | undefined {
    if (isDense(id)) {
      const row = this.chunks[id >>> CHUNK_BITS]?.[id & MASK] ?? 0;
      if (row !== 0) return row - 1;
    }
    return this.shards[shardOf(id)].get(id);
  }

  set(id: DocId, row: number): void {
    if (isDense(id)) {
      const at = id >>> CHUNK_BITS;
      let chunk = this.chunks[at];
      if (chunk && chunk[id & MASK] !== 0) {
        chunk[id & MASK] = row + 1;
        return;
      }
      const shard = this.shards[shardOf(id)];
      // An id kept in a Map (its chunk did not exist then) stays there.
      if (!shard.has(id)) {
        if (!chunk && this.chunkCount < FREE_CHUNKS + this.count / IDS_PER_CHUNK) {
          chunk = new Int32Array(CHUNK);
          this.chunks[at] = chunk;
          this.chunkCount++;
        }
        if (chunk) {
          chunk[id & MASK] = row + 1;
          this.count++;
          return;
        }
      }
    }
    const shard = this.shards[shardOf(id)];
    const before = shard.size;
    shard.set(id, row);
    this.count += shard.size - before;
  }

  delete(id: DocId): boolean {
    if (isDense(id)) {
      const chunk = this.chunks[id >>> CHUNK_BITS];
      if (chunk && chunk[id & MASK] !== 0) {
        chunk[id & MASK] = 0;
        this.count--;
        return true;
      }
    }
    const deleted = this.shards[shardOf(id)].delete(id);
    if (deleted) this.count--;
    return deleted;
  }

  /** Live rows, in no particular order. */
  *values(): IterableIterator<number> {
    for (const chunk of this.chunks) {
      if (!chunk) continue;
      for (let i = 0; i < CHUNK; i++) if (chunk[i] !== 0) yield chunk[i] - 1;
    }
    for (const shard of this.shards) yield* shard.values();
  }
}
