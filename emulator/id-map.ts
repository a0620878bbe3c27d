// Document id -> live row, split over many small Maps. One V8 Map with a million entries rehashes its whole table
// into fresh memory when it grows, inside a single set(): an event-loop stall in the middle of a write. 256 shards
// keep every rehash small.
import type { DocId } from './wire/ids';

const SHARDS = 256;

function shardOf(id: DocId): number {
  if (typeof id === 'number') return ((id % SHARDS) + SHARDS) % SHARDS;
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % SHARDS;
}

export class IdMap {
  private readonly shards = Array.from({ length: SHARDS }, () => new Map<DocId, number>());
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: DocId): number | undefined {
    return this.shards[shardOf(id)].get(id);
  }

  set(id: DocId, row: number): void {
    const shard = this.shards[shardOf(id)];
    const before = shard.size;
    shard.set(id, row);
    this.count += shard.size - before;
  }

  delete(id: DocId): boolean {
    const deleted = this.shards[shardOf(id)].delete(id);
    if (deleted) this.count--;
    return deleted;
  }

  /** Live rows, in no particular order. */
  *values(): IterableIterator<number> {
    for (const shard of this.shards) yield* shard.values();
  }
}
