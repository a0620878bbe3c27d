// Compact sample transfer from a VU realm to the main thread: metric names and tag sets are interned per realm
// and sent once; each sample is then four numbers in transferable typed arrays (no object per sample crosses).
import { isEmptyRecord, type SampleInput } from './sample';
import type { MetricType, ValueType } from './sinks';

export interface SampleBatch {
  type: 'samples';
  /** New metric names of this realm: [localId, name]. */
  names?: Array<[number, string]>;
  /** Custom metric definitions made in this realm: [name, type, contains]. */
  definitions?: Array<[string, MetricType, ValueType]>;
  /** New tag sets of this realm: [localId, tags]. */
  tagSets?: Array<[number, Record<string, string>]>;
  /** New metadata sets: [localId, metadata]; metadata id -1 means none. */
  metas?: Array<[number, Record<string, string>]>;
  count: number;
  metricIds: Int32Array;
  tagIds: Int32Array;
  metaIds: Int32Array;
  times: Float64Array;
  values: Float64Array;
}

const CAPACITY = 4096;

function keyOf(record: Readonly<Record<string, string>>): string {
  const keys = Object.keys(record).sort();
  let key = '';
  for (const k of keys) key += `${k}\u0000${record[k]}\u0001`;
  return key;
}

/** Accumulates samples in a realm and hands out full or flushed batches. */
export class SampleBatchEncoder {
  private nameIds = new Map<string, number>();
  private tagIdsByKey = new Map<string, number>();
  /**
   * Frozen tag sets (a VU's tags, repeated exchange tags) cannot change, so they are looked up by identity across
   * calls; keying a tag set (sort and join) is the encoder's largest cost at thousands of iterations per second.
   */
  private frozenTagIds = new WeakMap<object, number>();
  // Samples of one emit() call usually share one tags object: remember the last one (only within that call,
  // since callers may reuse and mutate an unfrozen tags object between calls).
  private lastTags: object | undefined;
  private lastTagId = 0;
  private metaIdsByKey = new Map<string, number>();
  private pendingNames: Array<[number, string]> = [];
  private pendingDefinitions: Array<[string, MetricType, ValueType]> = [];
  private pendingTags: Array<[number, Record<string, string>]> = [];
  private pendingMetas: Array<[number, Record<string, string>]> = [];
  private count = 0;
  private metricIds = new Int32Array(CAPACITY);
  private tagIds = new Int32Array(CAPACITY);
  private metaIds = new Int32Array(CAPACITY);
  private times = new Float64Array(CAPACITY);
  private values = new Float64Array(CAPACITY);
  /** performance.now() of the oldest unsent sample. */
  oldest = 0;

  /** @param onFirst called when a sample lands in an empty batch (a thread whose loop runs arms its flush timer there) */
  constructor(
    private readonly send: (batch: SampleBatch, transfer: ArrayBuffer[]) => void,
    private readonly onFirst?: () => void,
  ) {}

  get size(): number {
    return this.count;
  }

  define(name: string, type: MetricType, contains: ValueType): void {
    this.pendingDefinitions.push([name, type, contains]);
  }

  private tagId(tags: Readonly<Record<string, string>>): number {
    if (tags === this.lastTags) return this.lastTagId;
    const frozen = Object.isFrozen(tags);
    let id = frozen ? this.frozenTagIds.get(tags) : undefined;
    if (id === undefined) {
      const key = keyOf(tags);
      id = this.tagIdsByKey.get(key);
      if (id === undefined) {
        id = this.tagIdsByKey.size;
        this.tagIdsByKey.set(key, id);
        this.pendingTags.push([id, { ...tags }]);
      }
      if (frozen) this.frozenTagIds.set(tags, id);
    }
    this.lastTags = tags;
    this.lastTagId = id;
    return id;
  }

  private metaId(meta: Record<string, string> | undefined): number {
    if (!meta || isEmptyRecord(meta)) return -1;
    const key = keyOf(meta);
    let id = this.metaIdsByKey.get(key);
    if (id === undefined) {
      id = this.metaIdsByKey.size;
      // High-cardinality metadata (iter) would grow without bound: forget old ones now and then.
      if (id > 100_000) this.metaIdsByKey.clear();
      this.metaIdsByKey.set(key, id);
      this.pendingMetas.push([id, { ...meta }]);
    }
    return id;
  }

  /** Adds the samples of one emit() call. */
  addAll(samples: readonly SampleInput[]): void {
    this.lastTags = undefined;
    for (const s of samples) this.push(s);
    this.lastTags = undefined;
  }

  add(sample: SampleInput): void {
    this.lastTags = undefined;
    this.push(sample);
  }

  private push(sample: SampleInput): void {
    let mid = this.nameIds.get(sample.metric);
    if (mid === undefined) {
      mid = this.nameIds.size;
      this.nameIds.set(sample.metric, mid);
      this.pendingNames.push([mid, sample.metric]);
    }
    if (this.count === 0) {
      this.oldest = performance.now();
      this.onFirst?.();
    }
    const i = this.count++;
    this.metricIds[i] = mid;
    this.tagIds[i] = this.tagId(sample.tags);
    this.metaIds[i] = this.metaId(sample.metadata);
    this.times[i] = sample.time;
    this.values[i] = sample.value;
    if (this.count === CAPACITY) this.flush();
  }

  flush(): void {
    if (this.count === 0 && this.pendingDefinitions.length === 0) return;
    const n = this.count;
    // Send right-sized copies and keep the working arrays: a flush costs O(samples), not O(capacity).
    const batch: SampleBatch = {
      type: 'samples',
      count: n,
      metricIds: this.metricIds.slice(0, n),
      tagIds: this.tagIds.slice(0, n),
      metaIds: this.metaIds.slice(0, n),
      times: this.times.slice(0, n),
      values: this.values.slice(0, n),
    };
    if (this.pendingNames.length > 0) batch.names = this.pendingNames;
    if (this.pendingDefinitions.length > 0) batch.definitions = this.pendingDefinitions;
    if (this.pendingTags.length > 0) batch.tagSets = this.pendingTags;
    if (this.pendingMetas.length > 0) batch.metas = this.pendingMetas;
    this.pendingNames = [];
    this.pendingDefinitions = [];
    this.pendingTags = [];
    this.pendingMetas = [];
    this.count = 0;
    const transfer = [
      batch.metricIds.buffer,
      batch.tagIds.buffer,
      batch.metaIds.buffer,
      batch.times.buffer,
      batch.values.buffer,
    ] as ArrayBuffer[];
    this.send(batch, transfer);
  }
}
