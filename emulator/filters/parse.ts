// Filter JSON (lib/turbopuffer-wire.ts `Filter`: ["attr", "Op", value], ["And", [...]], ["Or", [...]], ["Not", f])
// -> a typed tree, checked against the namespace schema. Every problem is a 400 that names the attribute and the
// operator.
import type { FilterOperator } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import { analyzerFor } from '../text/analyzer';
import type { TextQuery, TokenMode } from '../text/match';
import { materialize } from '../wire/json-body';
import { describeJson } from '../wire/json-text';
import type { AttributeSpec, AttributeType, IdType, ScalarType } from '../wire/schema';
import { typeName } from '../wire/schema';
import type { StoredScalar, StoredValue } from '../wire/values';
import { normalizeScalar } from '../wire/values';

/** Operators turbopuffer has that need indexes the emulator does not build. */
const UNSUPPORTED_OPS = ['Fuzzy'] as const satisfies readonly FilterOperator[];

/** Token filters: evaluated with the attribute's full-text analysis. */
const TOKEN_OPS = {
  ContainsAllTokens: 'all',
  ContainsAnyToken: 'any',
  ContainsTokenSequence: 'sequence',
} as const satisfies Partial<Record<FilterOperator, TokenMode>>;
type TokenOp = keyof typeof TOKEN_OPS;

function isTokenOp(op: unknown): op is TokenOp {
  return typeof op === 'string' && Object.hasOwn(TOKEN_OPS, op);
}

/** The operators the emulator evaluates: the wire's, less those it refuses. */
export type LeafOp = Exclude<FilterOperator, (typeof UNSUPPORTED_OPS)[number]>;

const COMPARE_OPS = ['Lt', 'Lte', 'Gt', 'Gte'] as const satisfies readonly LeafOp[];
const ANY_COMPARE_OPS = ['AnyLt', 'AnyLte', 'AnyGt', 'AnyGte'] as const satisfies readonly LeafOp[];
const GLOB_OPS = ['Glob', 'NotGlob', 'IGlob', 'NotIGlob'] as const satisfies readonly LeafOp[];
const LEAF_OPS = [
  'Eq',
  'NotEq',
  'In',
  'NotIn',
  ...COMPARE_OPS,
  'Contains',
  'NotContains',
  'ContainsAny',
  'NotContainsAny',
  ...ANY_COMPARE_OPS,
  ...GLOB_OPS,
  'Regex',
  'ContainsAllTokens',
  'ContainsAnyToken',
  'ContainsTokenSequence',
] as const satisfies readonly LeafOp[];
// Every operator of the wire type is listed above or refused by name: one added to lib/turbopuffer-wire.ts fails
// to compile here until the emulator evaluates or refuses it, instead of being answered as unknown.
const _everyLeafOpListed: Record<Exclude<LeafOp, (typeof LEAF_OPS)[number]>, never> = {};

/** Whether `op` is one of turbopuffer's filter operators (implemented or not), as in ["attr", op, value]. */
export function isFilterOperator(op: unknown): boolean {
  return typeof op === 'string' && ([...LEAF_OPS, ...UNSUPPORTED_OPS] as readonly string[]).includes(op);
}

/** The value a leaf compares with: fixed, or the incoming document's attribute in a conditional write. */
export type Operand = { kind: 'value'; value: StoredValue } | { kind: 'ref_new'; attr: string };

export interface LeafNode {
  op: LeafOp;
  attr: string;
  operand: Operand;
  /** The attribute's type, or null when the namespace has never seen the attribute. */
  type: AttributeType | null;
  /** Token filters: the query analyzed with the attribute's settings. */
  text?: { query: TextQuery; mode: TokenMode };
}

export type FilterNode =
  | { op: 'And' | 'Or'; children: FilterNode[] }
  | { op: 'Not'; child: FilterNode }
  | LeafNode;

export function isLeaf(node: FilterNode): node is LeafNode {
  return node.op !== 'And' && node.op !== 'Or' && node.op !== 'Not';
}

export interface FilterSchema {
  idType: IdType | null;
  attribute(name: string): AttributeSpec | undefined;
}

/** Parses a filter. `field` names where it came from ("filters", "delete_by_filter"). */
export function parseFilter(
  raw: unknown,
  schema: FilterSchema,
  field: string,
  allowRefNew = false,
): FilterNode {
  return parseNode(materialize(raw, field), schema, field, allowRefNew);
}

function parseNode(raw: unknown, schema: FilterSchema, field: string, allowRefNew: boolean): FilterNode {
  if (!Array.isArray(raw) || raw.length < 2)
    throw badRequest(
      `${field}: expected a filter such as ["attr", "Eq", value], ["And", [...]] or ["Not", filter]`,
    );
  const [head, second] = raw;
  if (head === 'And' || head === 'Or') {
    if (!Array.isArray(second) || raw.length !== 2)
      throw badRequest(`${field}: ${head} expects a list of filters: ["${head}", [f1, f2, ...]]`);
    return {
      op: head,
      children: second.map((child, i) => parseNode(child, schema, `${field}.${head}[${i}]`, allowRefNew)),
    };
  }
  if (head === 'Not') {
    if (raw.length !== 2) throw badRequest(`${field}: Not expects one filter: ["Not", filter]`);
    return { op: 'Not', child: parseNode(second, schema, `${field}.Not`, allowRefNew) };
  }
  if (typeof head !== 'string')
    throw badRequest(`${field}: the first element must be an attribute name or And/Or/Not`);
  const attr = head;
  const op = second;
  if (typeof op !== 'string')
    throw badRequest(`filter error in key \`${attr}\`: the operator must be a string`);
  if ((UNSUPPORTED_OPS as readonly string[]).includes(op))
    throw badRequest(
      `filter error in key \`${attr}\`: ${op} needs a fuzzy index, which the emulator does not build`,
    );
  if (isTokenOp(op)) return parseTokenLeaf(raw, attr, op, schema);
  if (!(LEAF_OPS as readonly string[]).includes(op))
    throw badRequest(
      `filter error in key \`${attr}\`: unknown operator ${describeJson(op)}; use one of ${LEAF_OPS.join(', ')}`,
    );
  if (raw.length !== 3)
    throw badRequest(`filter error in key \`${attr}\`: ${op} expects ["${attr}", "${op}", value]`);
  const type = attributeType(attr, schema);
  return {
    op: op as LeafOp,
    attr,
    type,
    operand: parseOperand(attr, op as LeafOp, type, raw[2], allowRefNew),
  };
}

/** ["attr", "ContainsAllTokens", text or [tokens], {last_as_prefix}?] on a full-text attribute. */
function parseTokenLeaf(raw: unknown[], attr: string, op: TokenOp, schema: FilterSchema): LeafNode {
  const key = `filter error in key \`${attr}\``;
  if (raw.length !== 3 && raw.length !== 4)
    throw badRequest(
      `${key}: ${op} expects ["${attr}", "${op}", text] or ["${attr}", "${op}", text, {"last_as_prefix": true}]`,
    );
  const spec = attr === 'id' ? undefined : schema.attribute(attr);
  const config = spec?.fullTextSearch;
  if (!spec || !config)
    throw badRequest(
      `${key}: ${op} needs full-text search on the attribute (schema "full_text_search": true)`,
    );
  const lastAsPrefix = parseTextParams(raw[3], `${key}: ${op} params`);
  const value = raw[2];
  const analyzer = analyzerFor(config);
  const strings = Array.isArray(value) && value.every((v) => typeof v === 'string');
  if (analyzer.preTokenized ? !strings : typeof value !== 'string' && !strings)
    throw badRequest(
      `${key}: invalid input ${describeJson(value, 60)} for ${op}, expecting ${analyzer.preTokenized ? '[]string' : 'a string or []string'}`,
    );
  return {
    op,
    attr,
    type: spec.type,
    operand: { kind: 'value', value: value as string | string[] },
    text: {
      query: { config, ...analyzer.query(value as string | string[], lastAsPrefix) },
      mode: TOKEN_OPS[op],
    },
  };
}

/** The optional params object of a text clause: `{"last_as_prefix": bool}`. */
export function parseTextParams(raw: unknown, field: string): boolean {
  if (raw === undefined || raw === null) return false;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw badRequest(`${field}: expected {"last_as_prefix": true or false}, got ${describeJson(raw, 60)}`);
  for (const [key, value] of Object.entries(raw)) {
    if (key !== 'last_as_prefix')
      throw badRequest(`${field}: unknown field ${describeJson(key)} (it takes last_as_prefix)`);
    if (typeof value !== 'boolean') throw badRequest(`${field}: last_as_prefix expects true or false`);
  }
  return (raw as { last_as_prefix?: boolean }).last_as_prefix === true;
}

function attributeType(attr: string, schema: FilterSchema): AttributeType | null {
  if (attr === 'id') {
    if (!schema.idType) return null;
    const scalar: ScalarType = schema.idType === 'int' ? 'int' : schema.idType;
    return { kind: 'scalar', scalar };
  }
  const spec = schema.attribute(attr);
  if (!spec) return null; // never written: every document has null there
  if (spec.type.kind === 'vector')
    throw badRequest(`filter error in key \`${attr}\`: vector attributes cannot be filtered`);
  if (!spec.filterable)
    throw badRequest(
      spec.fullTextSearch
        ? `filter error in key \`${attr}\`: attribute is not filterable (full-text attributes are not filterable unless the schema says "filterable": true); token filters (ContainsAllTokens, ContainsAnyToken, ContainsTokenSequence) work without it`
        : `filter error in key \`${attr}\`: attribute is not filterable (schema has "filterable": false)`,
    );
  return spec.type;
}

function expects(op: LeafOp, type: AttributeType | null): { list: boolean; scalar: ScalarType | null } {
  const scalar = type && type.kind !== 'vector' ? type.scalar : null;
  const list = op === 'In' || op === 'NotIn' || op === 'ContainsAny' || op === 'NotContainsAny';
  return { list, scalar };
}

function parseOperand(
  attr: string,
  op: LeafOp,
  type: AttributeType | null,
  raw: unknown,
  allowRefNew: boolean,
): Operand {
  if (raw && typeof raw === 'object' && !Array.isArray(raw) && '$ref_new' in raw) {
    const ref = (raw as Record<string, unknown>).$ref_new;
    if (!allowRefNew)
      throw badRequest(`filter error in key \`${attr}\`: $ref_new is only allowed in write conditions`);
    if (typeof ref !== 'string')
      throw badRequest(`filter error in key \`${attr}\`: $ref_new expects an attribute name`);
    return { kind: 'ref_new', attr: ref };
  }
  const { list, scalar } = expects(op, type);
  const wanted = scalar ? (list ? `[]${scalar}` : scalar) : list ? 'an array' : 'a value';
  const fail = (): never => {
    throw badRequest(
      `filter error in key \`${attr}\`: type mismatch, ${op} expects ${wanted}, but got ${describeJson(raw)}`,
    );
  };
  const scalarValue = (v: unknown): StoredScalar => {
    // Integers beyond 2^53 stay exact for ids (BigInt, the form ids are kept in); attributes are doubles.
    if (typeof v === 'bigint') return attr === 'id' ? v : Number(v);
    if (typeof v === 'number' && !Number.isFinite(v)) return fail();
    if (scalar === null) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
      return fail();
    }
    const stored = normalizeScalar(scalar, v);
    if (stored === undefined) {
      // Numbers compare across int, uint and float.
      if ((scalar === 'int' || scalar === 'uint' || scalar === 'float') && typeof v === 'number') return v;
      return fail();
    }
    return stored;
  };
  if (op === 'Glob' || op === 'NotGlob' || op === 'IGlob' || op === 'NotIGlob' || op === 'Regex') {
    if (typeof raw !== 'string') fail();
    if (type && !(type.kind !== 'vector' && type.scalar === 'string'))
      throw badRequest(
        `filter error in key \`${attr}\`: ${op} needs a string attribute, not ${typeName(type)}`,
      );
    if (op === 'Regex') {
      try {
        new RegExp(raw as string);
      } catch (error) {
        throw badRequest(
          `filter error in key \`${attr}\`: invalid regular expression: ${(error as Error).message}`,
        );
      }
    }
    return { kind: 'value', value: raw as string };
  }
  if (list) {
    if (!Array.isArray(raw)) return fail();
    return { kind: 'value', value: raw.map(scalarValue) };
  }
  if (raw === null) {
    if (op === 'Eq' || op === 'NotEq') return { kind: 'value', value: null };
    return fail();
  }
  // Eq on an array attribute may compare whole arrays.
  if (Array.isArray(raw) && (op === 'Eq' || op === 'NotEq') && type?.kind === 'array')
    return { kind: 'value', value: raw.map(scalarValue) };
  return { kind: 'value', value: scalarValue(raw) };
}
