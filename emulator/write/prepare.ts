// A parsed write + the namespace's current state -> checked, normalized operations, or a 400 naming the field.
// Everything that can fail is decided here, before the write is logged; applying the result cannot fail.
// State-dependent choices (which rows a filter deletes, which conditions hold) are made here too, so replaying the
// log against the same state reproduces them.

import type { DistanceMetric } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import { compileFilter, type RefNew, type RowPredicate, type RowSource } from '../filters/evaluate';
import { type FilterNode, parseFilter } from '../filters/parse';
import type { NamespaceSchema } from '../namespace/schema';
import type { DocStore } from '../storage/doc-store';
import { type DocId, idBytes, inferIdType, parseId } from '../wire/ids';
import { describeJson } from '../wire/json-text';
import type { AttributeSpec, AttributeType, IdType } from '../wire/schema';
import { inferType, normalizeValue, type StoredValue, valueBytes } from '../wire/values';
import type { VectorBatch } from '../wire/vectors';
import type { DocColumns, WriteRequest } from '../wire/write-request';

/** turbopuffer's per-request caps for filter writes. */
const MAX_DELETE_BY_FILTER = 5_000_000;
const MAX_PATCH_BY_FILTER = 50_000;

export interface PreparedDocs {
  ids: DocId[];
  /** Stored values by attribute; for patches `undefined` leaves the attribute as it is. */
  values: Map<string, (StoredValue | undefined)[]>;
  vectors: Map<string, VectorBatch>;
  /** Logical bytes each document's operation carries (billing, unindexed bytes). */
  opBytes: number[];
  /** Rows to apply: false where a condition failed or a patch targets a missing id. */
  apply: boolean[];
}

export interface PreparedWrite {
  schemaChanges: Map<string, AttributeSpec>;
  /** Attributes removed from the schema and from every document, before anything else is applied. */
  drops: string[];
  /** Shards set by the namespace's first write (null: none given). */
  numShards: number | null;
  idType: IdType | null;
  distanceMetric: DistanceMetric | null;
  /** Ids matched by delete_by_filter, applied first. */
  filterDeletes: DocId[];
  /** Patches from patch_by_filter, applied second. */
  filterPatches: PreparedDocs | null;
  upserts: PreparedDocs[];
  patches: PreparedDocs[];
  /** Ids to delete that exist and pass delete_condition. */
  deletes: DocId[];
  rowsRemaining: boolean;
  /** Only upserts and deletes by id: the writes disable_backpressure applies to. */
  backpressureExempt: boolean;
}

export interface WriteState {
  schema: NamespaceSchema;
  store: DocStore;
  /** The namespace has applied a write before (sharding is fixed by the first one). */
  readonly created: boolean;
  readonly numShards: number | null;
}

/** Every attribute a write's documents or patches name (a dropped attribute must not be written too). */
function writtenAttributes(req: WriteRequest): Set<string> {
  const names = new Set<string>(req.schema.keys());
  for (const docs of [...req.upserts, ...req.patches]) {
    for (const name of docs.attributes.keys()) names.add(name);
    for (const name of docs.vectors.keys()) names.add(name);
  }
  for (const name of Object.keys(req.patchByFilter?.patch ?? {})) names.add(name);
  return names;
}

class Draft {
  readonly changes = new Map<string, AttributeSpec>();
  constructor(readonly schema: NamespaceSchema) {}
  spec(name: string): AttributeSpec | undefined {
    return this.changes.get(name) ?? this.schema.attribute(name);
  }
  set(name: string, spec: AttributeSpec): void {
    this.changes.set(name, spec);
  }
}

/**
 * The spec an attribute column leads to: the namespace's (declared or inferred earlier), or inferred from this
 * column's values for a new attribute (integers and fractions together make it float). Types never change after
 * that: values that do not fit are a 400 (normalizeValue), as on turbopuffer.
 */
function columnSpec(
  draft: Draft,
  name: string,
  values: readonly unknown[],
  field: string,
): AttributeSpec | undefined {
  const spec = draft.spec(name);
  if (spec?.type.kind === 'vector')
    throw badRequest(
      `${field}.${name}: is a vector attribute ([${spec.type.dims}]${spec.type.element}); send vectors`,
    );
  if (spec) return spec;
  let inferred: AttributeType | null = null;
  for (const value of values) {
    if (value === undefined || value === null) continue;
    const type = inferType(name, value);
    if (!type) continue;
    if (!inferred || isIntOf(inferred, type)) inferred = type;
  }
  if (!inferred) return undefined;
  const next: AttributeSpec = { type: inferred, filterable: true, declared: false };
  draft.set(name, next);
  return next;
}

function isIntOf(current: AttributeType, incoming: AttributeType): boolean {
  return (
    current.kind !== 'vector' &&
    incoming.kind === current.kind &&
    current.scalar === 'int' &&
    incoming.scalar === 'float'
  );
}

function prepareDocs(
  docs: DocColumns,
  draft: Draft,
  idType: IdType,
  seen: Set<DocId>,
  patch: boolean,
): PreparedDocs {
  const n = docs.ids.length;
  const ids = new Array<DocId>(n);
  const opBytes = new Array<number>(n);
  for (let i = 0; i < n; i++) {
    const id = parseId(
      docs.ids[i],
      idType,
      docs.source.endsWith('columns') ? `${docs.source}.id[${i}]` : `${docs.source}[${i}].id`,
    );
    if (seen.has(id))
      throw badRequest(
        `${docs.source}: document id ${describeJson(id)} appears more than once in this request`,
      );
    seen.add(id);
    ids[i] = id;
    opBytes[i] = idBytes(id, idType);
  }
  const values = new Map<string, (StoredValue | undefined)[]>();
  for (const [name, raw] of docs.attributes) {
    const spec = columnSpec(draft, name, raw, docs.source);
    const stored = new Array<StoredValue | undefined>(n);
    for (let i = 0; i < n; i++) {
      const value = raw[i];
      if (value === undefined) {
        stored[i] = patch ? undefined : null;
        continue;
      }
      const v = spec ? normalizeValue(name, spec.type, value, spec.filterable) : null;
      stored[i] = v;
      if (spec) opBytes[i] += valueBytes(spec.type, v);
    }
    values.set(name, stored);
  }
  for (const [name, batch] of docs.vectors) {
    let spec = draft.spec(name);
    if (spec && spec.type.kind !== 'vector')
      throw badRequest(`${docs.source}.${name}: attribute has type ${spec.type.kind}, not a vector type`);
    if (!spec) {
      spec = {
        type: { kind: 'vector', dims: batch.dims, element: 'f32' },
        filterable: false,
        declared: false,
      };
      draft.set(name, spec);
    }
    if (spec.type.kind === 'vector' && spec.type.dims !== batch.dims)
      throw badRequest(`${docs.source}.${name}: expected ${spec.type.dims} dimensions, got ${batch.dims}`);
    const perRow = spec.type.kind === 'vector' ? spec.type.dims * (spec.type.element === 'f16' ? 2 : 4) : 0;
    for (let i = 0; i < n; i++) if (!batch.missing?.[i]) opBytes[i] += perRow;
  }
  return { ids, values, vectors: docs.vectors, opBytes, apply: new Array<boolean>(n).fill(true) };
}

/** Values an incoming document carries, for $ref_new in conditions. */
function refNewFor(docs: PreparedDocs, i: number): RefNew {
  return (attr) => {
    if (attr === 'id') return docs.ids[i];
    const v = docs.values.get(attr)?.[i];
    return v === undefined ? null : v;
  };
}

function conditionFilter(raw: unknown, field: string, draft: Draft, idType: IdType): FilterNode | null {
  if (raw === undefined) return null;
  return parseFilter(raw, { idType, attribute: (n) => draft.spec(n) }, field, true);
}

/** The documents of one upsert batch as a RowSource (row = index in the batch), for conditions on them. */
function docsSource(docs: PreparedDocs): RowSource {
  return {
    id: (i) => docs.ids[i],
    value: (attr, i) => docs.values.get(attr)?.[i] ?? null,
  };
}

/**
 * A condition checked against the version of a document an operation meets: the one upserted earlier in this
 * request, else the stored one. Returns 'missing' when the document does not exist (or delete_by_filter took it).
 */
function currentVersion(
  condition: FilterNode | null,
  store: DocStore,
  gone: (id: DocId) => boolean,
  upserted: ReadonlyMap<DocId, { docs: PreparedDocs; i: number }>,
): (id: DocId, refNew: RefNew) => boolean | 'missing' {
  const stored = condition ? compileFilter(condition, store.source) : null;
  const fresh = new Map<PreparedDocs, RowPredicate>();
  return (id, refNew) => {
    const version = upserted.get(id);
    if (version) {
      if (!condition) return true;
      let check = fresh.get(version.docs);
      if (!check) {
        check = compileFilter(condition, docsSource(version.docs));
        fresh.set(version.docs, check);
      }
      return check(version.i, refNew);
    }
    const row = store.liveRows.get(id);
    if (row === undefined || gone(id)) return 'missing';
    return stored ? stored(row, refNew) : true;
  };
}

export function prepareWrite(req: WriteRequest, state: WriteState): PreparedWrite {
  const { schema, store } = state;
  const draft = new Draft(schema);

  if (req.numShards !== null && state.created && req.numShards !== state.numShards)
    throw badRequest(
      `sharding: can only be configured on a namespace's first write (this one ${state.numShards === null ? 'is not sharded' : `has ${state.numShards} shards`})`,
    );
  if (req.drops.length > 0) {
    const written = writtenAttributes(req);
    for (const name of req.drops) {
      if (!schema.attribute(name))
        throw badRequest(`schema.${name}: the namespace has no attribute ${name} to drop`);
      if (written.has(name))
        throw badRequest(`schema.${name}: an attribute cannot be dropped and written in the same request`);
    }
  }

  // Schema entries first: they decide how the data below is read.
  if (req.idType && schema.idType && req.idType !== schema.idType)
    throw badRequest(`schema.id: the namespace's ids are ${schema.idType}; the id type cannot change`);
  for (const [name, spec] of req.schema) draft.set(name, schema.merge(name, spec));

  let distanceMetric: DistanceMetric | null = null;
  if (req.distanceMetric) {
    if (schema.distanceMetric && schema.distanceMetric !== req.distanceMetric)
      throw badRequest(
        `distance_metric: the namespace uses ${schema.distanceMetric}; the metric cannot change (got ${req.distanceMetric})`,
      );
    if (!schema.distanceMetric) distanceMetric = req.distanceMetric;
  }

  const firstId = [...req.upserts, ...req.patches].find((d) => d.ids.length > 0)?.ids[0] ?? req.deletes[0];
  const idType: IdType = schema.idType ?? req.idType ?? inferIdType(firstId);
  const newIdType = schema.idType === null && (firstId !== undefined || req.idType !== null) ? idType : null;

  const upsertIds = new Set<DocId>();
  const upserts = req.upserts.map((docs) => prepareDocs(docs, draft, idType, upsertIds, false));
  const patchIds = new Set<DocId>();
  const patches = req.patches.map((docs) => prepareDocs(docs, draft, idType, patchIds, true));
  const hasVectors = upserts.some((u) => u.vectors.size > 0);
  if (hasVectors && !schema.distanceMetric && !distanceMetric)
    throw badRequest('distance_metric: required when writing vectors to a namespace for the first time');

  const deleteIds = new Set<DocId>();
  const requested = req.deletes.map((raw, i) => {
    const id = parseId(raw, idType, `deletes[${i}]`);
    if (deleteIds.has(id))
      throw badRequest(`deletes: document id ${describeJson(id)} appears more than once`);
    deleteIds.add(id);
    return id;
  });

  const filterSchema = { idType, attribute: (n: string) => draft.spec(n) };
  const source = store.source;
  let rowsRemaining = false;

  // delete_by_filter runs before everything else in the request.
  const filterDeletes: DocId[] = [];
  if (req.deleteByFilter !== undefined) {
    const predicate = compileFilter(
      parseFilter(req.deleteByFilter, filterSchema, 'delete_by_filter'),
      source,
    );
    for (const row of store.liveRows.values()) {
      if (!predicate(row)) continue;
      if (filterDeletes.length === MAX_DELETE_BY_FILTER) {
        if (!req.deleteByFilterAllowPartial)
          throw badRequest(
            `delete_by_filter: matches more than ${MAX_DELETE_BY_FILTER} documents; set delete_by_filter_allow_partial to delete in parts`,
          );
        rowsRemaining = true;
        break;
      }
      filterDeletes.push(store.idOf(row));
    }
  }
  const deletedByFilter = new Set(filterDeletes);

  let filterPatches: PreparedDocs | null = null;
  if (req.patchByFilter) {
    const predicate = compileFilter(
      parseFilter(req.patchByFilter.filters, filterSchema, 'patch_by_filter.filters'),
      source,
    );
    const matched: DocId[] = [];
    for (const row of store.liveRows.values()) {
      const id = store.idOf(row);
      if (deletedByFilter.has(id) || !predicate(row)) continue;
      if (matched.length === MAX_PATCH_BY_FILTER) {
        if (!req.patchByFilterAllowPartial)
          throw badRequest(
            `patch_by_filter: matches more than ${MAX_PATCH_BY_FILTER} documents; set patch_by_filter_allow_partial to patch in parts`,
          );
        rowsRemaining = true;
        break;
      }
      matched.push(id);
    }
    const attributes = new Map<string, unknown[]>();
    for (const [name, value] of Object.entries(req.patchByFilter.patch))
      attributes.set(name, new Array(matched.length).fill(value));
    filterPatches = prepareDocs(
      { source: 'patch_by_filter', ids: matched, attributes, vectors: new Map() },
      draft,
      idType,
      new Set(),
      true,
    );
  }

  // Then upserts, patches and deletes, in that order: a patch or a delete of an id upserted earlier in the request
  // acts on that new version, and conditions are checked against the version the operation meets.
  const upsertCondition = conditionFilter(req.upsertCondition, 'upsert_condition', draft, idType);
  const patchCondition = conditionFilter(req.patchCondition, 'patch_condition', draft, idType);
  const deleteCondition = conditionFilter(req.deleteCondition, 'delete_condition', draft, idType);
  const gone = (id: DocId) => deletedByFilter.has(id);
  const before = currentVersion(upsertCondition, store, gone, new Map());
  for (const docs of upserts)
    docs.ids.forEach((id, i) => {
      // An upsert of a missing document is always applied.
      if (before(id, refNewFor(docs, i)) === false) docs.apply[i] = false;
    });
  const upserted = new Map<DocId, { docs: PreparedDocs; i: number }>();
  for (const docs of upserts)
    docs.ids.forEach((id, i) => {
      if (docs.apply[i]) upserted.set(id, { docs, i });
    });
  const patchCheck = currentVersion(patchCondition, store, gone, upserted);
  for (const docs of patches)
    docs.ids.forEach((id, i) => {
      // Patches of missing documents are skipped silently.
      if (patchCheck(id, refNewFor(docs, i)) !== true) docs.apply[i] = false;
    });
  const deleteCheck = currentVersion(deleteCondition, store, gone, upserted);
  const deletes = requested.filter((id) => deleteCheck(id, () => null) === true);

  const conditional =
    req.upsertCondition !== undefined ||
    req.patchCondition !== undefined ||
    req.deleteCondition !== undefined;
  return {
    schemaChanges: draft.changes,
    drops: req.drops,
    numShards: state.created ? null : req.numShards,
    idType: newIdType,
    distanceMetric,
    filterDeletes,
    filterPatches,
    upserts,
    patches,
    deletes,
    rowsRemaining,
    backpressureExempt:
      !conditional &&
      req.patches.length === 0 &&
      req.deleteByFilter === undefined &&
      req.patchByFilter === null,
  };
}
