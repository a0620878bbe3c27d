// Attribute values: type inference for first-seen attributes, checks against a declared or inferred type, the
// stored form (datetime -> epoch ms, uuid -> lower case), logical byte sizes, and rendering back to JSON.
import { badRequest } from '../api-error';
import { describeJson } from './json-text';
import type { AttributeType, ScalarType } from './schema';
import { typeName } from './schema';

/**
 * What the emulator keeps per attribute value. Arrays hold scalars of one type. BigInt only ever appears as an id
 * (above 2^53) read through the same paths as attributes (filters, ordering); attribute values are never BigInts.
 */
export type StoredScalar = string | number | boolean | bigint;
export type StoredValue = StoredScalar | StoredScalar[] | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Filterable values above this are refused by the service. */
const MAX_FILTERABLE_VALUE_BYTES = 4096;

function scalarOf(value: unknown): ScalarType | null {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number' && Number.isFinite(value)) return Number.isInteger(value) ? 'int' : 'float';
  // Integer literals beyond 2^53 (the parser keeps them exact when a body carries big ids).
  if (typeof value === 'bigint') return 'int';
  return null;
}

/**
 * The type a first-seen value implies (turbopuffer infers string, int, float, bool and their arrays), or null when
 * nothing can be inferred yet (null, empty array). uint, uuid and datetime must be declared.
 */
export function inferType(name: string, value: unknown): AttributeType | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    let scalar: ScalarType | null = null;
    for (const item of value) {
      const s = scalarOf(item);
      if (!s) throw badRequest(`attribute ${name}: arrays may hold strings, numbers or booleans only`);
      if (scalar === null || (scalar === 'int' && s === 'float')) scalar = s;
      else if (scalar !== s && !(scalar === 'float' && s === 'int'))
        throw badRequest(`attribute ${name}: array mixes ${scalar} and ${s} values`);
    }
    return scalar ? { kind: 'array', scalar } : null;
  }
  const s = scalarOf(value);
  if (!s && value && typeof value === 'object' && !Array.isArray(value))
    throw badRequest(
      `attribute ${name}: unsupported value ${describeJson(value)}; an object is a sparse vector ({}f16), which the emulator does not model`,
    );
  if (!s)
    throw badRequest(
      `attribute ${name}: unsupported value ${describeJson(value)}; use a string, number, boolean or an array of them`,
    );
  return { kind: 'scalar', scalar: s };
}

/** Integers the emulator cannot store exactly: attribute values are JS numbers (doubles). */
function isUnsafeInteger(value: unknown): boolean {
  return (
    typeof value === 'bigint' ||
    (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value))
  );
}

function mismatch(name: string, type: AttributeType, value: unknown): never {
  const items = Array.isArray(value) ? value : [value];
  const wantsInteger = type.kind !== 'vector' && ['int', 'uint', 'datetime'].includes(type.scalar);
  // Attribute values are parsed as doubles, so the digits quoted are the double's: 9007199254740993 reads as ...992.
  if (wantsInteger && items.some(isUnsafeInteger))
    throw badRequest(
      `attribute ${name}: ${describeJson(value)} holds an integer beyond +-2^53 (shown as read into a 64-bit float, so its last digits may differ from those sent), which the emulator cannot store exactly as ${typeName(type)}; keep such values in a string attribute`,
    );
  const got = Array.isArray(value) ? null : scalarOf(value);
  throw badRequest(
    `type mismatch for attribute ${name}: it is ${typeName(type)}, got ${describeJson(value)}${got ? ` (${got})` : ''}; an attribute's type cannot change after its first write (declare it in the schema to choose)`,
  );
}

/** Checks one scalar against its type and returns the stored form, or undefined when it does not fit. */
export function normalizeScalar(scalar: ScalarType, value: unknown): StoredScalar | undefined {
  switch (scalar) {
    case 'string':
      return typeof value === 'string' ? value : undefined;
    case 'bool':
      return typeof value === 'boolean' ? value : undefined;
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'uint':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
    case 'float':
      if (typeof value === 'bigint') return Number(value);
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : undefined;
    case 'datetime': {
      if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
      const ms = Date.parse(value);
      return Number.isNaN(ms) ? undefined : ms;
    }
  }
}

/** Checks a value against its attribute type; null passes. Throws a 400 naming the attribute. */
export function normalizeValue(
  name: string,
  type: AttributeType,
  value: unknown,
  filterable: boolean,
): StoredValue {
  if (value === null || value === undefined) return null;
  if (type.kind === 'vector') return mismatch(name, type, value);
  if (type.kind === 'scalar') {
    const stored = normalizeScalar(type.scalar, value);
    if (stored === undefined) return mismatch(name, type, value);
    if (filterable && typeof stored === 'string' && stored.length > MAX_FILTERABLE_VALUE_BYTES / 4)
      checkFilterableSize(name, stored);
    return stored;
  }
  if (!Array.isArray(value)) return mismatch(name, type, value);
  const out: StoredScalar[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const stored = normalizeScalar(type.scalar, value[i]);
    if (stored === undefined) return mismatch(name, type, value);
    out[i] = stored;
  }
  return out;
}

function checkFilterableSize(name: string, value: string): void {
  if (Buffer.byteLength(value) > MAX_FILTERABLE_VALUE_BYTES)
    throw badRequest(
      `attribute ${name}: filterable values are limited to ${MAX_FILTERABLE_VALUE_BYTES} bytes; declare it {"filterable": false} to store longer text`,
    );
}

const SCALAR_BYTES: Record<ScalarType, number> = {
  string: 0,
  bool: 1,
  int: 8,
  uint: 8,
  float: 8,
  datetime: 8,
  uuid: 16,
};

function scalarBytes(scalar: ScalarType, value: StoredScalar): number {
  return scalar === 'string' ? Buffer.byteLength(value as string) : SCALAR_BYTES[scalar];
}

/** Logical bytes of a stored value: strings by UTF-8 length, numbers 8, bools 1, uuids 16, arrays summed. */
export function valueBytes(type: AttributeType, value: StoredValue): number {
  if (value === null) return 0;
  if (type.kind === 'vector') return 0;
  if (type.kind === 'scalar') return scalarBytes(type.scalar, value as StoredScalar);
  let total = 0;
  for (const item of value as StoredScalar[]) total += scalarBytes(type.scalar, item);
  return total;
}

/** A stored value as JSON for responses: datetimes back to ISO-8601 strings. */
export function renderValue(type: AttributeType, value: StoredValue): unknown {
  if (value === null) return null;
  if (type.kind !== 'vector' && type.scalar === 'datetime') {
    if (Array.isArray(value)) return value.map((v) => new Date(v as number).toISOString());
    return new Date(value as number).toISOString();
  }
  return value;
}
