// The in-memory log used without --data-dir. It only numbers records: the namespace's in-memory state already holds
// every acknowledged write, and keeping a second copy of each body would cost the fresh-memory page faults the body
// path works to avoid (docs/engine-measurements.md §0).
import type { NamespaceSettings, ReplayedRecord, WalRecord, WriteAheadLog } from './wal';

export class MemoryWal implements WriteAheadLog {
  private seq = 0;
  private indexed = 0;
  private closed = false;
  settings: NamespaceSettings | null = null;

  async append(_record: WalRecord): Promise<number> {
    if (this.closed) throw new Error('write-ahead log is closed');
    return ++this.seq;
  }

  async *replay(): AsyncIterable<ReplayedRecord> {}

  async markIndexed(seq: number): Promise<void> {
    this.indexed = Math.max(this.indexed, Math.min(seq, this.seq));
  }

  get indexedSeq(): number {
    return this.indexed;
  }

  get lastSeq(): number {
    return this.seq;
  }

  async saveSettings(settings: NamespaceSettings): Promise<void> {
    if (this.closed) throw new Error('write-ahead log is closed');
    this.settings = settings;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  async destroy(): Promise<void> {
    this.closed = true;
  }
}
