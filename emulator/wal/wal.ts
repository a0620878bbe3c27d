// The write-ahead log's interface. A namespace appends each accepted write (its JSON body, as received) and
// acknowledges the client only after append() resolves; on restart it replays the records in order.
//
//   seq:      1      2      3      4      5
//           [w1]   [w2]   [s3]   [w4]   [w5]        s = schema change, w = write
//                         ^ indexedSeq = 3          records <= indexedSeq are covered by indexes
//
// Replay always starts at seq 1 (the log is the store of record; indexes are rebuilt from it) and the persisted
// indexedSeq tells the indexer how far it had got, so metadata resumes where it was.

export type WalRecordKind = 'write' | 'schema';

export interface WalRecord {
  kind: WalRecordKind;
  /** When the write was accepted (epoch ms): restores created_at / updated_at after a restart. */
  timeMs: number;
  /** The request body as JSON bytes (decompressed). */
  body: Buffer;
}

export interface ReplayedRecord {
  seq: number;
  record: WalRecord;
  /** Where the record's frame starts on disk. */
  at?: { file: string; offset: number };
}

/**
 * A namespace's settings from PATCH .../metadata: kept beside the log, replaced whole, durable before the PATCH is
 * answered, so a restart keeps what was acknowledged.
 */
export interface NamespaceSettings {
  readOnly: boolean;
  /** Replicas asked for and since when (epoch ms; the status clock restarts with each change); null when unpinned. */
  pinning: { replicas: number; since: number } | null;
}

export interface WriteAheadLog {
  /** Appends one record; resolves with its sequence number (1, 2, ...) once it is durable. */
  append(record: WalRecord): Promise<number>;
  /**
   * Every durable record, oldest first, with the file and byte offset of its frame where it has one. A memory log
   * holds none (nothing survives its process anyway).
   */
  replay(): AsyncIterable<ReplayedRecord>;
  /** Records up to `seq` are indexed. */
  markIndexed(seq: number): Promise<void>;
  /** The last seq marked indexed (0 when none), as persisted. */
  readonly indexedSeq: number;
  /** Sequence number of the last appended record (0 when none). */
  readonly lastSeq: number;
  /** Replaces the namespace's settings; resolves once they are durable. */
  saveSettings(settings: NamespaceSettings): Promise<void>;
  /** The settings as last saved (null when never set). */
  readonly settings: NamespaceSettings | null;
  close(): Promise<void>;
  /** Removes the log for good (namespace deleted). */
  destroy(): Promise<void>;
}
