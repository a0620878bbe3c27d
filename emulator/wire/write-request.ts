// A write body (POST /v2/namespaces/:ns) -> typed operations, or a 400 naming the field. Shape only: ids and values
// are checked against the namespace's schema later, under its write lock (write/prepare.ts).

import type { CopyFromNamespace, DistanceMetric, WriteFields } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import { checkNamespaceName } from '../namespace/name';
import { holdsRoundedInteger, isRoundedInteger } from './ids';
import { materialize, parseJsonBody, parseJsonBodyAsync, RawString, type Unchecked } from './json-body';
import { describeJson, fieldName } from './json-text';
import type { AttributeSpec, IdType } from './schema';
import {
  checkAttributeName,
  isDropEntry,
  parseDistanceMetric,
  parseIdType,
  parseSchemaEntry,
} from './schema';
import type { FloatAllocator, VectorBatch } from './vectors';
import { readVectorColumn, readVectorList } from './vectors';

/** Documents in columnar form, whichever form they arrived in. */
export interface DocColumns {
  /** Where they came from, for messages: "upsert_rows", "patch_columns", ... */
  source: string;
  ids: unknown[];
  /** Attribute values by column; `undefined` = the row did not mention it (patches leave it alone). */
  attributes: Map<string, unknown[]>;
  vectors: Map<string, VectorBatch>;
}

export interface WriteRequest {
  upserts: DocColumns[];
  patches: DocColumns[];
  deletes: unknown[];
  /** Raw filter JSON (parsed against the schema later); undefined when absent. */
  deleteByFilter: unknown;
  deleteByFilterAllowPartial: boolean;
  patchByFilter: { filters: unknown; patch: Record<string, unknown> } | null;
  patchByFilterAllowPartial: boolean;
  upsertCondition: unknown;
  patchCondition: unknown;
  deleteCondition: unknown;
  distanceMetric: DistanceMetric | null;
  schema: Map<string, AttributeSpec>;
  /** Attributes the schema drops (`{"drop": true}`). */
  drops: string[];
  idType: IdType | null;
  disableBackpressure: boolean;
  returnAffectedIds: boolean;
  copyFromNamespace: string | null;
  /** `create_namespace`: true creates the namespace even without documents, false never creates it; null: absent. */
  createNamespace: boolean | null;
  /** `sharding.num_shards`, or null when absent. */
  numShards: number | null;
}

/** The most shards a namespace may have (docs/turbopuffer-api.md §2.1). */
const MAX_SHARDS = 256;

/** A write that would change nothing: no documents, filter writes, schema, metric or namespace to create. */
export function isEmptyWrite(req: WriteRequest): boolean {
  return (
    req.upserts.length === 0 &&
    req.patches.length === 0 &&
    req.deletes.length === 0 &&
    req.deleteByFilter === undefined &&
    req.patchByFilter === null &&
    req.schema.size === 0 &&
    req.drops.length === 0 &&
    req.idType === null &&
    req.distanceMetric === null &&
    req.copyFromNamespace === null &&
    req.createNamespace !== true
  );
}

export interface WriteWireContext {
  /** Vector columns the namespace already has (besides "vector", which always is one). */
  vectorColumns: ReadonlySet<string>;
  /** Known dimensions of a vector column, or null. */
  vectorDims(name: string): number | null;
  alloc: FloatAllocator;
}

const KNOWN_FIELDS: ReadonlySet<string> = new Set<keyof WriteFields>([
  'upsert_rows',
  'upsert_columns',
  'patch_rows',
  'patch_columns',
  'deletes',
  'delete_by_filter',
  'delete_by_filter_allow_partial',
  'patch_by_filter',
  'patch_by_filter_allow_partial',
  'upsert_condition',
  'patch_condition',
  'delete_condition',
  'distance_metric',
  'schema',
  'disable_backpressure',
  'return_affected_ids',
  'copy_from_namespace',
  'create_namespace',
  'branch_from_namespace',
  'encryption',
  'sharding',
]);

function bool(body: Unchecked<WriteFields>, key: keyof WriteFields): boolean {
  const value = body[key];
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw badRequest(`${key}: expected true or false`);
  return value;
}

function readRows(
  raw: unknown,
  source: string,
  patch: boolean,
  vectorColumns: ReadonlySet<string>,
  ctx: WriteWireContext,
): DocColumns {
  if (!Array.isArray(raw)) throw badRequest(`${source}: expected an array of documents`);
  const n = raw.length;
  const ids = new Array<unknown>(n);
  const attributes = new Map<string, unknown[]>();
  const vectorValues = new Map<string, unknown[]>();
  for (let i = 0; i < n; i++) {
    const row = raw[i];
    if (!row || typeof row !== 'object' || Array.isArray(row))
      throw badRequest(`${source}[${i}]: expected an object`);
    const record = row as Record<string, unknown>;
    if (record.id === undefined || record.id === null)
      throw badRequest(`${source}[${i}].id: every document needs an id`);
    ids[i] = record.id;
    for (const key of Object.keys(record)) {
      if (key === 'id') continue;
      const target = vectorColumns.has(key) ? vectorValues : attributes;
      let column = target.get(key);
      if (!column) {
        checkAttributeName(key, `${source}[${i}].${key}`);
        if (patch && target === vectorValues)
          throw badRequest(
            `${source}[${i}].${key}: vector attributes cannot be patched; upsert the document instead`,
          );
        column = new Array<unknown>(n).fill(undefined);
        target.set(key, column);
      }
      column[i] = target === attributes ? materialize(record[key], `${source}[${i}].${key}`) : record[key];
    }
  }
  const vectors = new Map<string, VectorBatch>();
  for (const [name, values] of vectorValues)
    vectors.set(
      name,
      readVectorList(values, (i) => `${source}[${i}].${name}`, ctx.vectorDims(name), ctx.alloc),
    );
  return { source, ids, attributes, vectors };
}

function readColumns(
  raw: unknown,
  source: string,
  patch: boolean,
  vectorColumns: ReadonlySet<string>,
  ctx: WriteWireContext,
): DocColumns {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest(`${source}: expected an object of columns`);
  const record = raw as Record<string, unknown>;
  if (!Array.isArray(record.id)) throw badRequest(`${source}.id: expected an array of ids`);
  const ids = record.id;
  const n = ids.length;
  const attributes = new Map<string, unknown[]>();
  const vectors = new Map<string, VectorBatch>();
  for (const key of Object.keys(record)) {
    if (key === 'id') continue;
    const field = `${source}.${key}`;
    checkAttributeName(key, field);
    if (vectorColumns.has(key)) {
      if (patch)
        throw badRequest(`${field}: vector attributes cannot be patched; upsert the documents instead`);
      vectors.set(key, readVectorColumn(record[key], n, field, ctx.vectorDims(key), ctx.alloc));
      continue;
    }
    const column = record[key];
    if (!Array.isArray(column)) throw badRequest(`${field}: expected an array with one value per id`);
    if (column.length !== n) throw badRequest(`${field}: has ${column.length} values but id has ${n}`);
    attributes.set(
      key,
      column.map((v, i) => (v instanceof RawString ? v.toString() : materialize(v, `${field}[${i}]`))),
    );
  }
  return { source, ids, attributes, vectors };
}

/** Every vector batch of a write, for decodeVectors. */
export function writeVectorBatches(req: WriteRequest): VectorBatch[] {
  return [...req.upserts, ...req.patches].flatMap((docs) => [...docs.vectors.values()]);
}

/** Parses a write body already decoded by parseJsonBody. */
export function parseWriteRequest(raw: unknown, ctx: WriteWireContext): WriteRequest {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest('request body: expected a JSON object');
  const body = raw as Unchecked<WriteFields>;
  for (const key of Object.keys(body)) {
    if (!KNOWN_FIELDS.has(key)) throw badRequest(`${fieldName(key)}: unknown field in a write request`);
  }
  if (body.branch_from_namespace !== undefined)
    throw badRequest('branch_from_namespace: branching is not supported by the emulator');
  const numShards = parseSharding(materialize(body.sharding, 'sharding'));
  checkEncryption(materialize(body.encryption, 'encryption'));

  const schema = new Map<string, AttributeSpec>();
  const drops: string[] = [];
  let idType: IdType | null = null;
  const rawSchema = materialize(body.schema, 'schema');
  if (rawSchema !== undefined && rawSchema !== null) {
    if (typeof rawSchema !== 'object' || Array.isArray(rawSchema))
      throw badRequest('schema: expected an object');
    for (const [name, entry] of Object.entries(rawSchema)) {
      if (isDropEntry(name, entry)) {
        if (name === 'id') throw badRequest('schema.id: the id cannot be dropped');
        checkAttributeName(name, `schema.${name}`);
        drops.push(name);
      } else if (name === 'id') idType = parseIdType(entry);
      else schema.set(name, parseSchemaEntry(name, entry));
    }
  }
  const vectorColumns = new Set(ctx.vectorColumns);
  vectorColumns.add('vector');
  for (const [name, spec] of schema) if (spec.type.kind === 'vector') vectorColumns.add(name);
  const schemaDims: WriteWireContext = {
    ...ctx,
    vectorDims: (name) => {
      const spec = schema.get(name);
      return spec?.type.kind === 'vector' ? spec.type.dims : ctx.vectorDims(name);
    },
  };

  const upserts: DocColumns[] = [];
  const patches: DocColumns[] = [];
  if (body.upsert_rows !== undefined)
    upserts.push(readRows(body.upsert_rows, 'upsert_rows', false, vectorColumns, schemaDims));
  if (body.upsert_columns !== undefined)
    upserts.push(readColumns(body.upsert_columns, 'upsert_columns', false, vectorColumns, schemaDims));
  if (body.patch_rows !== undefined)
    patches.push(readRows(body.patch_rows, 'patch_rows', true, vectorColumns, schemaDims));
  if (body.patch_columns !== undefined)
    patches.push(readColumns(body.patch_columns, 'patch_columns', true, vectorColumns, schemaDims));

  const deletes = materialize(body.deletes ?? [], 'deletes');
  if (!Array.isArray(deletes)) throw badRequest('deletes: expected an array of ids');

  let patchByFilter: WriteRequest['patchByFilter'] = null;
  const rawPatchByFilter = materialize(body.patch_by_filter, 'patch_by_filter');
  if (rawPatchByFilter !== undefined && rawPatchByFilter !== null) {
    const p = rawPatchByFilter as Record<string, unknown>;
    if (
      typeof p !== 'object' ||
      Array.isArray(p) ||
      p.filters === undefined ||
      !p.patch ||
      typeof p.patch !== 'object'
    )
      throw badRequest('patch_by_filter: expected {"filters": [...], "patch": {attribute: value, ...}}');
    for (const key of Object.keys(p.patch as object)) {
      checkAttributeName(key, `patch_by_filter.patch.${key}`);
      if (key === 'id' || vectorColumns.has(key))
        throw badRequest(`patch_by_filter.patch.${key}: cannot be patched`);
    }
    patchByFilter = { filters: p.filters, patch: p.patch as Record<string, unknown> };
  }

  return {
    upserts,
    patches,
    deletes,
    deleteByFilter:
      body.delete_by_filter === null ? undefined : materialize(body.delete_by_filter, 'delete_by_filter'),
    deleteByFilterAllowPartial: bool(body, 'delete_by_filter_allow_partial'),
    patchByFilter,
    patchByFilterAllowPartial: bool(body, 'patch_by_filter_allow_partial'),
    upsertCondition:
      body.upsert_condition === null ? undefined : materialize(body.upsert_condition, 'upsert_condition'),
    patchCondition:
      body.patch_condition === null ? undefined : materialize(body.patch_condition, 'patch_condition'),
    deleteCondition:
      body.delete_condition === null ? undefined : materialize(body.delete_condition, 'delete_condition'),
    distanceMetric:
      body.distance_metric === undefined || body.distance_metric === null
        ? null
        : parseDistanceMetric(body.distance_metric, 'distance_metric'),
    schema,
    drops,
    idType,
    disableBackpressure: bool(body, 'disable_backpressure'),
    returnAffectedIds: bool(body, 'return_affected_ids'),
    copyFromNamespace: parseCopyFrom(materialize(body.copy_from_namespace, 'copy_from_namespace')),
    createNamespace:
      body.create_namespace === undefined || body.create_namespace === null
        ? null
        : bool(body, 'create_namespace'),
    numShards,
  };
}

/** `sharding`: `{"num_shards": n}` with 1 <= n <= 256, or absent. */
function parseSharding(raw: unknown): number | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest(`sharding: expected {"num_shards": n}, got ${describeJson(raw, 60)}`);
  const { num_shards: n, ...rest } = raw as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw badRequest(`sharding.${fieldName(extra)}: unknown field (sharding takes num_shards)`);
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_SHARDS)
    throw badRequest(
      `sharding.num_shards: expected a whole number from 1 to ${MAX_SHARDS}, got ${describeJson(n)}`,
    );
  return n;
}

/**
 * encryption (and a copy's dest_encryption, `field`): absent, null, or {"mode": "default"}; customer-managed keys are
 * a plan feature the emulator lacks.
 */
function checkEncryption(raw: unknown, field = 'encryption'): void {
  if (raw === undefined || raw === null) return;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest(`${field}: expected {"mode": "default"}, got ${describeJson(raw)}`);
  const { mode, ...rest } = raw as Record<string, unknown>;
  if (mode === 'customer-managed')
    throw badRequest(
      `${field}.mode: only "default" is supported (customer-managed keys need a real turbopuffer plan)`,
    );
  if (mode !== undefined && mode !== 'default')
    throw badRequest(`${field}.mode: expected "default", got ${describeJson(mode)}`);
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw badRequest(`${field}.${fieldName(extra)}: unknown field (only "mode" is supported)`);
}

/** Whether an id (or a filter, which may compare ids) holds an integer JSON.parse could not keep exactly. */
function mayHoldRoundedIds(req: WriteRequest): boolean {
  for (const docs of [...req.upserts, ...req.patches]) if (docs.ids.some(isRoundedInteger)) return true;
  return (
    req.deletes.some(isRoundedInteger) ||
    [
      req.deleteByFilter,
      req.patchByFilter?.filters,
      req.upsertCondition,
      req.patchCondition,
      req.deleteCondition,
    ].some(holdsRoundedInteger)
  );
}

/**
 * A write body -> a WriteRequest with every id exact: parsed once, and again with exact integers only when an id
 * needs it (above 2^53). With `turn`, the parse yields between slices of a large body (parseJsonBodyAsync).
 */
export async function readWriteBody(
  body: Buffer,
  ctx: WriteWireContext,
  turn?: () => Promise<void>,
): Promise<WriteRequest> {
  const parse = (exactIntegers: boolean) =>
    turn ? parseJsonBodyAsync(body, turn, { exactIntegers }) : parseJsonBody(body, { exactIntegers });
  const request = parseWriteRequest(await parse(false), ctx);
  return mayHoldRoundedIds(request) ? parseWriteRequest(await parse(true), ctx) : request;
}

/** The fields of copy_from_namespace's object form, as the SDKs send them. */
const COPY_FIELDS: ReadonlySet<string> = new Set<keyof CopyFromNamespace>([
  'source_namespace',
  'source_region',
  'source_api_key',
  'dest_encryption',
]);

function parseCopyFrom(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') {
    checkNamespaceName(raw, 'copy_from_namespace');
    return raw;
  }
  if (typeof raw === 'object' && !Array.isArray(raw)) {
    const r = raw as Unchecked<CopyFromNamespace>;
    if (typeof r.source_namespace === 'string') {
      for (const key of Object.keys(r))
        if (!COPY_FIELDS.has(key))
          throw badRequest(
            `copy_from_namespace.${fieldName(key)}: unknown field (it takes ${[...COPY_FIELDS].join(', ')})`,
          );
      if (r.source_region !== undefined || r.source_api_key !== undefined)
        throw badRequest(
          'copy_from_namespace: cross-region and cross-organization copies are not supported by the emulator',
        );
      checkEncryption(r.dest_encryption, 'copy_from_namespace.dest_encryption');
      checkNamespaceName(r.source_namespace, 'copy_from_namespace.source_namespace');
      return r.source_namespace;
    }
  }
  throw badRequest('copy_from_namespace: expected a namespace name or {"source_namespace": name}');
}
