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

export interface WriteAheadLog {
  /** Appends one record; resolves with its sequence number (1, 2, ...) once it is durable. */
  append(record: WalRecord): Promise<number>;
  /** Every durable record, oldest first. A memory log holds none (nothing survives its process anyway). */
  replay(): AsyncIterable<{ seq: number; record: WalRecord }>;
  /** Records up to `seq` are indexed. */
  markIndexed(seq: number): Promise<void>;
  /** The last seq marked indexed (0 when none), as persisted. */
  readonly indexedSeq: number;
  /** Sequence number of the last appended record (0 when none). */
  readonly lastSeq: number;
  close(): Promise<void>;
  /** Removes the log for good (namespace deleted). */
  destroy(): Promise<void>;
}
