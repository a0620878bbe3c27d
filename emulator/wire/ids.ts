// Document ids: u64 integers, strings up to 64 bytes, or UUIDs (declared). One id type per namespace.
import { badRequest } from '../api-error';
import type { IdType } from './schema';

/** An id as the emulator keys it: a number for uint/int ids, a (lower-case for uuid) string otherwise. */
export type DocId = number | string;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const MAX_STRING_ID_BYTES = 64;

/** The id type a first id implies when the namespace has none yet. */
export function inferIdType(raw: unknown): IdType {
  return typeof raw === 'number' ? 'uint' : 'string';
}

/** Checks one id against the namespace's id type. `field` names it in the 400, e.g. "upsert_rows[3].id". */
export function parseId(raw: unknown, type: IdType, field: string): DocId {
  switch (type) {
    case 'uint':
    case 'int':
      if (typeof raw === 'number' && Number.isSafeInteger(raw) && (type === 'int' || raw >= 0)) return raw;
      if (typeof raw === 'number' && Number.isInteger(raw))
        throw badRequest(`${field}: id ${raw} is above 2^53 and cannot be kept exactly by the emulator`);
      throw badRequest(
        `${field}: expected a ${type === 'uint' ? 'non-negative ' : ''}integer id, got ${show(raw)}`,
      );
    case 'uuid':
      if (typeof raw === 'string' && UUID.test(raw)) return raw.toLowerCase();
      throw badRequest(`${field}: expected a UUID id, got ${show(raw)}`);
    case 'string':
      if (typeof raw !== 'string') throw badRequest(`${field}: expected a string id, got ${show(raw)}`);
      if (raw.length === 0) throw badRequest(`${field}: ids must not be empty`);
      if (Buffer.byteLength(raw) > MAX_STRING_ID_BYTES)
        throw badRequest(`${field}: string ids are limited to ${MAX_STRING_ID_BYTES} bytes`);
      return raw;
  }
}

/** Logical bytes of an id: 8 for integers, 16 for UUIDs, UTF-8 length for strings. */
export function idBytes(id: DocId, type: IdType): number {
  if (type === 'uuid') return 16;
  return typeof id === 'number' ? 8 : Buffer.byteLength(id);
}

function show(raw: unknown): string {
  const text = JSON.stringify(raw);
  return text === undefined ? String(raw) : text.slice(0, 60);
}
