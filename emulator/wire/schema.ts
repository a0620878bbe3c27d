// Attribute types and schema entries as turbopuffer spells them ("string", "[]int", "[768]f32", {type, filterable,
// ann}) -> typed specs, and back to the normalized form metadata and GET .../schema return.

import type { DistanceMetric, SchemaOptions } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import { describeFtsConfig, type FtsConfig, parseFtsConfig } from '../text/config';
import { describeJson, fieldName } from './json-text';

export type ScalarType = 'string' | 'int' | 'uint' | 'float' | 'uuid' | 'datetime' | 'bool';
const SCALAR_TYPES: readonly ScalarType[] = ['string', 'int', 'uint', 'float', 'uuid', 'datetime', 'bool'];

export type AttributeType =
  | { kind: 'scalar'; scalar: ScalarType }
  | { kind: 'array'; scalar: ScalarType }
  | { kind: 'vector'; dims: number; element: 'f32' | 'f16' };

/** Largest dense vector the service accepts. */
export const MAX_DIMS = 10_752;

export interface AttributeSpec {
  type: AttributeType;
  /** Filters may use it; attribute indexes are built for it. Default true. */
  filterable: boolean;
  /** Declared in a schema (false: inferred from the first value, and int may still widen to float). */
  declared: boolean;
  /** Optional filters kept so GET schema echoes them. */
  regex?: boolean;
  glob?: boolean;
  /** Vector columns only. */
  distanceMetric?: DistanceMetric;
  /** Full-text search on a string or []string attribute: its settings, or null/absent when off. */
  fullTextSearch?: FtsConfig | null;
  /** Set by the request's entry: `filterable` was given (else full-text attributes default to not filterable). */
  filterableGiven?: boolean;
}

export function typeName(type: AttributeType): string {
  if (type.kind === 'scalar') return type.scalar;
  if (type.kind === 'array') return `[]${type.scalar}`;
  return `[${type.dims}]${type.element}`;
}

/** "string" | "[]int" | "[768]f32" -> AttributeType, or null when the text is no type. */
export function parseTypeName(text: string): AttributeType | null {
  if ((SCALAR_TYPES as readonly string[]).includes(text))
    return { kind: 'scalar', scalar: text as ScalarType };
  if (text.startsWith('[]') && (SCALAR_TYPES as readonly string[]).includes(text.slice(2)))
    return { kind: 'array', scalar: text.slice(2) as ScalarType };
  const vector = /^\[(\d+)\](f32|f16)$/.exec(text);
  if (vector) {
    const dims = Number(vector[1]);
    if (dims < 1 || dims > MAX_DIMS) return null;
    return { kind: 'vector', dims, element: vector[2] as 'f32' | 'f16' };
  }
  return null;
}

export function sameType(a: AttributeType, b: AttributeType): boolean {
  return typeName(a) === typeName(b);
}

/** turbopuffer's limit on attribute names (the limits page counts bytes). */
const MAX_ATTRIBUTE_NAME_BYTES = 128;

/**
 * A name the emulator's JavaScript objects cannot carry as a field: assigning it sets the object's prototype, so the
 * value would be kept and filtered on but missing from rows, metadata and aggregations.
 */
export const UNSUPPORTED_NAME = '__proto__';

export function unsupportedName(field: string, what: string): never {
  throw badRequest(
    `${field}: the ${what} name ${UNSUPPORTED_NAME} is not supported by the emulator (its JavaScript objects cannot carry it as a field); use another name`,
  );
}

/** Attribute names: 1 to 128 bytes, not starting with '$', not __proto__. `field` names the place in the 400. */
export function checkAttributeName(name: string, field: string): void {
  if (name.length === 0) throw badRequest(`${field || 'attribute'}: attribute names must not be empty`);
  if (name.startsWith('$')) throw badRequest(`${field}: attribute names must not start with '$'`);
  if (name === UNSUPPORTED_NAME) unsupportedName(field, 'attribute');
  if (name.length > MAX_ATTRIBUTE_NAME_BYTES / 3 && Buffer.byteLength(name) > MAX_ATTRIBUTE_NAME_BYTES)
    throw badRequest(
      `${field.slice(0, 80)}...: attribute names are at most ${MAX_ATTRIBUTE_NAME_BYTES} bytes (got ${Buffer.byteLength(name)})`,
    );
}

/** Schema options turbopuffer has that need indexes the emulator does not build. */
const UNSUPPORTED_OPTIONS: Record<string, string> = {
  fuzzy: 'fuzzy matching is not implemented by the emulator',
  embed: 'server-side embedding is not implemented by the emulator',
  sparse_knn: 'sparse vectors are not implemented by the emulator',
};

/**
 * Whether a schema entry is `{"drop": true}` (removes the attribute). `drop` takes only true and nothing beside it,
 * as the SDK's AttributeSchemaDropParam says.
 */
export function isDropEntry(name: string, raw: unknown): boolean {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('drop' in raw)) return false;
  const field = `schema.${name}`;
  const entry = raw as Record<string, unknown>;
  if (entry.drop !== true) throw badRequest(`${field}.drop: must be true (omit the attribute to keep it)`);
  const other = Object.keys(entry).find((key) => key !== 'drop');
  if (other !== undefined)
    throw badRequest(`${field}.${fieldName(other)}: drop cannot be combined with other schema settings`);
  return true;
}

/** Vector element types the service has that the emulator does not model, and why. */
function unmodelledType(text: string): string | null {
  if (/^\[\d+\]i8$/.test(text))
    return 'int8 vectors ([N]i8) are not modelled by the emulator; send [N]f32 or [N]f16';
  if (/^\{\}f(16|32)$/.test(text))
    return 'sparse vectors ({}f16) are not modelled by the emulator (no sparse kNN index)';
  if (/^\[\]\[\d+\]f(16|32)$/.test(text))
    return 'multi-vector attributes ([][N]f32) are not modelled by the emulator (no late-interaction index)';
  return null;
}

/** One entry of a request's `schema` object, checked for shape (not yet against the namespace). */
export function parseSchemaEntry(name: string, raw: unknown): AttributeSpec {
  const field = `schema.${name}`;
  checkAttributeName(name, field);
  let config: Record<string, unknown>;
  if (typeof raw === 'string') config = { type: raw };
  else if (raw && typeof raw === 'object' && !Array.isArray(raw)) config = raw as Record<string, unknown>;
  else throw badRequest(`${field}: expected a type name, an object with "type", or {"drop": true}`);
  if (typeof config.type !== 'string')
    throw badRequest(
      `${field}.type: expected a type name such as "string", "[]int" or "[768]f32" (or the entry {"drop": true})`,
    );
  const unmodelled = unmodelledType(config.type);
  if (unmodelled) throw badRequest(`${field}.type: ${unmodelled}`);
  const type = parseTypeName(String(config.type));
  if (!type)
    throw badRequest(
      `${field}.type: unknown type ${describeJson(config.type)}; use one of ${SCALAR_TYPES.join(', ')}, their []arrays, or [N]f32 / [N]f16 with 1 <= N <= ${MAX_DIMS}`,
    );
  for (const key of Object.keys(config)) {
    if (!KNOWN_CONFIG_KEYS.has(key)) throw badRequest(`${field}.${key}: unknown schema option`);
    const value = config[key];
    if (key in UNSUPPORTED_OPTIONS && value !== undefined && value !== null && value !== false)
      throw badRequest(`${field}.${key}: ${UNSUPPORTED_OPTIONS[key]}; omit it or set it to false`);
  }
  const spec: AttributeSpec = { type, filterable: true, declared: true };
  const fts = parseFtsConfig(config.full_text_search, `${field}.full_text_search`, type.kind === 'array');
  if (fts) {
    if (type.kind === 'vector' || type.scalar !== 'string')
      throw badRequest(
        `${field}.full_text_search: needs a string or []string attribute, not ${typeName(type)}`,
      );
    spec.fullTextSearch = fts;
    // Full-text attributes are not filterable unless the entry says so.
    spec.filterable = false;
  } else if (config.full_text_search === false) spec.fullTextSearch = null;
  if (config.filterable !== undefined && config.filterable !== null) {
    if (typeof config.filterable !== 'boolean')
      throw badRequest(`${field}.filterable: expected true or false`);
    spec.filterable = config.filterable;
    spec.filterableGiven = true;
  }
  for (const key of ['regex', 'glob'] as const) {
    if (config[key] === undefined || config[key] === null) continue;
    if (typeof config[key] !== 'boolean') throw badRequest(`${field}.${key}: expected true or false`);
    spec[key] = config[key] as boolean;
  }
  if (type.kind === 'vector') {
    spec.filterable = false;
    const ann = config.ann;
    if (ann !== undefined && ann !== null && ann !== true && (typeof ann !== 'object' || Array.isArray(ann)))
      throw badRequest(`${field}.ann: expected true or {"distance_metric": ...}`);
    if (ann && typeof ann === 'object') {
      const { distance_metric: metric, late_interaction: late, ...rest } = ann as Record<string, unknown>;
      const extra = Object.keys(rest)[0];
      if (extra !== undefined)
        throw badRequest(
          `${field}.ann.${fieldName(extra)}: unknown field (ann takes distance_metric, late_interaction)`,
        );
      if (late !== undefined && late !== null && late !== false)
        throw badRequest(
          `${field}.ann.late_interaction: needs a multi-vector attribute ([][N]f32), which the emulator does not model`,
        );
      if (metric !== undefined)
        spec.distanceMetric = parseDistanceMetric(metric, `${field}.ann.distance_metric`);
    }
  } else if (config.ann !== undefined && config.ann !== null && config.ann !== false) {
    throw badRequest(`${field}.ann: only vector types ([N]f32, [N]f16) can have an ANN index`);
  }
  return spec;
}

const KNOWN_CONFIG_KEYS: ReadonlySet<string> = new Set<keyof SchemaOptions>([
  'type',
  'filterable',
  'ann',
  'full_text_search',
  'regex',
  'glob',
  'fuzzy',
  'embed',
  'sparse_knn',
]);

export function parseDistanceMetric(raw: unknown, field: string): DistanceMetric {
  if (raw === 'cosine_distance' || raw === 'euclidean_squared') return raw;
  throw badRequest(`${field}: expected "cosine_distance" or "euclidean_squared", got ${describeJson(raw)}`);
}

/** The id column's type: how document ids are checked and keyed. */
export type IdType = 'uint' | 'int' | 'string' | 'uuid';

export function parseIdType(raw: unknown): IdType {
  const type =
    typeof raw === 'string' ? raw : raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : raw;
  if (type === 'uint' || type === 'int' || type === 'string' || type === 'uuid') return type;
  throw badRequest(`schema.id.type: expected "uint", "string" or "uuid", got ${describeJson(type)}`);
}

/** Metadata's normalized schema entry: {type, ann: {distance_metric}} for vectors, {type, filterable...} otherwise. */
export function describeForMetadata(
  spec: AttributeSpec,
  metric: DistanceMetric | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = { type: typeName(spec.type) };
  if (spec.type.kind === 'vector') {
    out.ann = { distance_metric: spec.distanceMetric ?? metric ?? 'cosine_distance' };
    return out;
  }
  // Spelt out either way: the Go SDK reads a missing `filterable` as false.
  out.filterable = spec.filterable;
  if (spec.fullTextSearch) out.full_text_search = describeFtsConfig(spec.fullTextSearch);
  if (spec.regex) out.regex = true;
  if (spec.glob) out.glob = true;
  return out;
}

/** GET .../schema's entry: every option spelt out, null where unset, `ann: true` for vectors. */
export function describeForSchemaRoute(spec: AttributeSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {
    type: typeName(spec.type),
    filterable: spec.type.kind === 'vector' ? null : spec.filterable,
    full_text_search: spec.fullTextSearch ? describeFtsConfig(spec.fullTextSearch) : null,
  };
  if (spec.type.kind === 'vector') out.ann = true;
  if (spec.regex) out.regex = true;
  if (spec.glob) out.glob = true;
  return out;
}
