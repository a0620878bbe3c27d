// A recorded history of the consistency suite, as the Go checker (checker/main.go) reads it, and the seeded
// generator of the operations the clients send. The namespace holds ids 1..IDS with attributes v (the writing
// operation's number, so a read shows which write it sees), g (a small group, for filter writes and filter reads)
// and p (set by patches). Everything an operation sends follows from the seed; only the timing is the machine's.

const IDS = 10;
const GROUPS = 4;
/**
 * Every write also deletes id MARKER + its number, a document that never exists: a no-op that makes each request
 * body unique, so the log read after a kill tells which writes in doubt took effect.
 */
const MARKER = 1_000_000;

interface Filter {
  attr?: 'id' | 'v' | 'g' | 'p';
  op?: 'Eq' | 'Gte' | 'Lt' | 'In';
  value?: number;
  ids?: number[];
  and?: Filter[];
}

export interface Write {
  deleteByFilter?: Filter;
  patchByFilter?: { filter: Filter; p: number };
  upserts?: { id: number; v: number; g: number }[];
  /** upsert_condition ["v", "Lt", {"$ref_new": "v"}]: an existing document is replaced only by a higher v. */
  conditional?: boolean;
  patches?: { id: number; p: number }[];
  deletes?: number[];
}

export interface Read {
  consistency: 'strong' | 'eventual';
  /** Eventual, issued after a metadata read of the same process showed the backlog within the eventual tail. */
  covered?: boolean;
  filter?: Filter;
}

export interface Row {
  id: number;
  v: number;
  g: number;
  p: number | null;
}

export interface Affected {
  upserted: number[];
  patched: number[];
  deleted: number[];
}

/** One operation: times in microseconds on the driver's clock; `unknown` when a kill swallowed the answer. */
export interface Op {
  client: number;
  call: number;
  return: number;
  unknown?: boolean;
  /** With unknown: the write's body was in the log after the restart, so it took effect before the kill. */
  applied?: boolean;
  /** A write's number in the history (its place in the seeded plan); the log order names writes by it. */
  n?: number;
  write?: Write;
  read?: Read;
  affected?: Affected;
  rows?: Row[];
  note?: string;
}

export interface History {
  seed: number;
  index: number;
  clients: number;
  /** When each kill -9 was seen to have ended the process (microseconds). */
  kills: number[];
  meta: Record<string, unknown>;
  ops: Op[];
  /** Write numbers in the order of the namespace's log after the run: the committed history. */
  logOrder?: number[];
}

/** What a client sends: a write or a read, before it has times or an answer. */
export type Planned = { write: Write } | { read: Read };

function distinctIds(rand: () => number, min: number, max: number): number[] {
  const n = min + Math.floor(rand() * (max - min + 1));
  const ids = new Set<number>();
  while (ids.size < n) ids.add(1 + Math.floor(rand() * IDS));
  return [...ids];
}

function randomFilter(rand: () => number): Filter {
  const r = rand();
  if (r < 0.4) return { attr: 'g', op: 'Eq', value: Math.floor(rand() * GROUPS) };
  if (r < 0.6) return { attr: 'id', op: 'In', ids: distinctIds(rand, 1, 5) };
  if (r < 0.75) return { attr: 'v', op: 'Gte', value: Math.floor(rand() * 200) };
  // Lt matches documents without p (turbopuffer's rule for nulls).
  if (r < 0.9) return { attr: 'p', op: 'Lt', value: Math.floor(rand() * 200) };
  return {
    and: [
      { attr: 'g', op: 'Eq', value: Math.floor(rand() * GROUPS) },
      { attr: 'v', op: 'Gte', value: Math.floor(rand() * 200) },
    ],
  };
}

/**
 * The `n`-th operation of a history (0-based): its number makes the v and p values it writes unique, and rises
 * with the order operations are handed to the clients, so conditional upserts race on it.
 */
export function planOperation(rand: () => number, n: number): Planned {
  const planned = plan(rand, n);
  if ('write' in planned) planned.write.deletes = [...(planned.write.deletes ?? []), MARKER + n];
  return planned;
}

function plan(rand: () => number, n: number): Planned {
  const value = n + 1;
  const r = rand();
  const upserts = (min: number, max: number) =>
    distinctIds(rand, min, max).map((id) => ({ id, v: value, g: Math.floor(rand() * GROUPS) }));
  if (r < 0.16) return { write: { upserts: upserts(2, 5) } };
  if (r < 0.26) return { write: { upserts: upserts(1, 4), conditional: true } };
  if (r < 0.34) return { write: { patches: distinctIds(rand, 1, 3).map((id) => ({ id, p: value })) } };
  if (r < 0.4) return { write: { deletes: distinctIds(rand, 1, 3) } };
  if (r < 0.44)
    return { write: { deleteByFilter: { attr: 'g', op: 'Eq', value: Math.floor(rand() * GROUPS) } } };
  if (r < 0.49)
    return {
      write: {
        patchByFilter: { filter: { attr: 'g', op: 'Eq', value: Math.floor(rand() * GROUPS) }, p: value },
      },
    };
  if (r < 0.53) {
    // One request of each kind at once: applied in turbopuffer's order, atomically.
    const ups = upserts(1, 3);
    return {
      write: {
        upserts: ups,
        patches: distinctIds(rand, 1, 2).map((id) => ({ id, p: value })),
        deletes: distinctIds(rand, 1, 2),
      },
    };
  }
  if (r < 0.78)
    return { read: { consistency: 'strong', filter: rand() < 0.6 ? randomFilter(rand) : undefined } };
  return { read: { consistency: 'eventual', filter: rand() < 0.5 ? randomFilter(rand) : undefined } };
}

/** The filter in turbopuffer's JSON. */
function wireFilter(f: Filter): unknown {
  if (f.and) return ['And', f.and.map(wireFilter)];
  if (f.op === 'In') return ['id', 'In', f.ids];
  return [f.attr, f.op, f.value];
}

/** The write's request body. */
export function wireWrite(w: Write): Record<string, unknown> {
  const body: Record<string, unknown> = { return_affected_ids: true };
  if (w.deleteByFilter) body.delete_by_filter = wireFilter(w.deleteByFilter);
  if (w.patchByFilter)
    body.patch_by_filter = { filters: wireFilter(w.patchByFilter.filter), patch: { p: w.patchByFilter.p } };
  if (w.upserts) body.upsert_rows = w.upserts;
  if (w.conditional) body.upsert_condition = ['v', 'Lt', { $ref_new: 'v' }];
  if (w.patches) body.patch_rows = w.patches;
  if (w.deletes) body.deletes = w.deletes;
  return body;
}

/** The read's query body: every matching document with its attributes, in id order. */
export function wireRead(r: Read): Record<string, unknown> {
  const body: Record<string, unknown> = {
    include_attributes: ['v', 'g', 'p'],
    top_k: 100,
    consistency: { level: r.consistency },
  };
  if (r.filter) body.filters = wireFilter(r.filter);
  return body;
}
