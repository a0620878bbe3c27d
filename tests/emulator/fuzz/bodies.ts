// fast-check generators of hostile request bodies for the emulator: writes, queries, schema and metadata bodies built
// from the API's own fields with values drawn from what breaks parsers (ids across and beyond u64, 1e309, NaN-bit
// base64, 10,000-deep nesting, 256-byte and empty keys, wrong types everywhere), plus bytes that are not JSON at all.
// Bodies are JSON *text*, so they can hold what JSON.stringify cannot write (raw big integers, 1e309).
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** JSON text inserted verbatim: numbers JS cannot hold, or nesting too deep to build as a value. */
export class Raw {
  constructor(readonly text: string) {}
}

export type JsonText = null | boolean | number | string | Raw | JsonText[] | { [key: string]: JsonText };

export function toJsonText(value: JsonText): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** A case as fast-check prints it in a failure report: the body cut to 2,000 characters. */
function withShortPrint(c: FuzzCase): FuzzCase {
  const body = typeof c.body === 'string' ? c.body : Buffer.from(c.body).toString('latin1');
  const shown = body.length > 2000 ? `${body.slice(0, 2000)}... (${body.length} chars)` : body;
  return Object.assign(c, { [fc.toStringMethod]: () => `${c.method} ${c.path} ${shown}` });
}

/** One request of the fuzz run. */
export interface FuzzCase {
  kind: 'write' | 'query' | 'schema' | 'metadata' | 'garbage' | 'gzip' | 'delete';
  method: string;
  /** Namespace the case targets (a handful are reused, so state builds up between cases). */
  namespace: string;
  path: string;
  body: string | Uint8Array;
  headers: Record<string, string>;
}

export const NAMESPACES = ['fz-a', 'fz-b', 'fz-c', 'fz-d'];

const deep = (depth: number, open: string, close: string, leaf: string) =>
  new Raw(open.repeat(depth) + leaf + close.repeat(depth));

/** Numbers as raw text, across every edge a u64 / f64 / f32 parser has. */
const rawNumber = fc
  .oneof(
    fc.constantFrom(
      '0',
      '-0',
      '1',
      '-1',
      '1.5',
      '0.5',
      '9007199254740991',
      '9007199254740992',
      '9007199254740993',
      '18446744073709551615',
      '18446744073709551616',
      '-9223372036854775808',
      '99999999999999999999999999999',
      '1e309',
      '-1e309',
      '1e39',
      '1e-400',
      '1e19',
      '4.9e-324',
      '1.0',
    ),
    fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  )
  .map((text) => new Raw(text));

const keyString = fc.oneof(
  { arbitrary: fc.constantFrom('n', 'cat', 'price', 'tags', 'vector', 'id', 'when', 'v2'), weight: 6 },
  { arbitrary: fc.constantFrom('', '$dist', '$ref_new', '__proto__', 'constructor', 'a.b', 'é'), weight: 2 },
  { arbitrary: fc.integer({ min: 120, max: 300 }).map((n) => 'k'.repeat(n)), weight: 1 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 2 },
);

const scalar: fc.Arbitrary<JsonText> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -1000, max: 1000 }),
  rawNumber,
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('2024-05-01T00:00:00Z', '0f8fad5b-d9cb-469f-a165-70867728950e', 'not-a-date'),
  fc.integer({ min: 256, max: 5000 }).map((n) => 'L'.repeat(n)),
);

/** Arbitrary JSON with hostile leaves, a few levels deep, sometimes absurdly deep. */
const anyJson: fc.Arbitrary<JsonText> = fc.oneof(
  { arbitrary: scalar, weight: 6 },
  {
    arbitrary: fc.letrec<{ v: JsonText }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        scalar,
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(keyString, tie('v'), { maxKeys: 4 }),
      ),
    })).v,
    weight: 3,
  },
  {
    arbitrary: fc
      .integer({ min: 100, max: 10_000 })
      .chain((d) => fc.constantFrom(deep(d, '[', ']', '1'), deep(d, '{"a":', '}', '1'))),
    weight: 1,
  },
);

/** Integer ids as raw digits (small, around 2^53 and 2^64), plus everything an id must not be. */
const id: fc.Arbitrary<JsonText> = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 50 }), weight: 6 },
  {
    arbitrary: fc.bigInt({ min: 2n ** 53n - 2n, max: 2n ** 53n + 2n }).map((n) => new Raw(String(n))),
    weight: 2,
  },
  {
    arbitrary: fc.bigInt({ min: 2n ** 64n - 3n, max: 2n ** 64n + 1n }).map((n) => new Raw(String(n))),
    weight: 2,
  },
  { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((n) => new Raw(String(n))), weight: 2 },
  {
    arbitrary: fc.constantFrom('a', 'b', '', '0f8fad5b-d9cb-469f-a165-70867728950e', 'x'.repeat(65)),
    weight: 2,
  },
  { arbitrary: anyJson, weight: 1 },
);

const f32Base64 = (floats: number[]) => Buffer.from(new Float32Array(floats).buffer).toString('base64');

/** Vectors: good ones of 2 or 3 dimensions, and every way to get them wrong. */
const vector: fc.Arbitrary<JsonText> = fc.oneof(
  {
    arbitrary: fc.array(fc.float({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }), {
      minLength: 2,
      maxLength: 3,
    }),
    weight: 6,
  },
  { arbitrary: fc.array(rawNumber, { minLength: 1, maxLength: 4 }), weight: 2 },
  { arbitrary: fc.array(fc.float(), { minLength: 2, maxLength: 3 }).map(f32Base64), weight: 2 },
  {
    arbitrary: fc.uint8Array({ minLength: 0, maxLength: 24 }).map((b) => Buffer.from(b).toString('base64')),
    weight: 2,
  },
  { arbitrary: fc.constantFrom('not base64!', '', '===', 'AAAA'.repeat(3000)), weight: 1 },
  {
    arbitrary: fc.integer({ min: 10_752, max: 11_000 }).map((n) => new Raw(`[${'0.5,'.repeat(n - 1)}0.5]`)),
    weight: 1,
  },
  { arbitrary: anyJson, weight: 1 },
);

const row: fc.Arbitrary<JsonText> = fc
  .tuple(id, fc.option(vector, { freq: 2 }), fc.dictionary(keyString, anyJson, { maxKeys: 3 }))
  .map(([rowId, vec, attributes]) => {
    const out: Record<string, JsonText> = { ...attributes, id: rowId };
    if (vec !== null) out.vector = vec;
    return out;
  });

const rows = fc.oneof(
  { arbitrary: fc.array(row, { maxLength: 6 }), weight: 8 },
  { arbitrary: anyJson, weight: 1 },
);

const columns: fc.Arbitrary<JsonText> = fc.oneof(
  {
    arbitrary: fc.array(row, { maxLength: 6 }).map((list) => {
      // Rows -> columns, with whatever keys the rows had (lengths may disagree: that is a case too).
      const out = new Map<string, JsonText[]>();
      for (const r of list as Record<string, JsonText>[])
        for (const [k, v] of Object.entries(r)) out.set(k, [...(out.get(k) ?? []), v]);
      return Object.fromEntries(out);
    }),
    weight: 6,
  },
  { arbitrary: anyJson, weight: 1 },
);

const leafOp = fc.constantFrom(
  'Eq',
  'NotEq',
  'In',
  'NotIn',
  'Lt',
  'Lte',
  'Gt',
  'Gte',
  'Contains',
  'ContainsAny',
  'AnyLt',
  'Glob',
  'IGlob',
  'Regex',
  'Fuzzy',
  'ContainsAllTokens',
  'Bogus',
);

/** Filter trees of the documented shapes with hostile operands, and deep or malformed ones. */
const filter: fc.Arbitrary<JsonText> = fc.oneof(
  {
    arbitrary: fc.letrec<{ f: JsonText }>((tie) => ({
      f: fc.oneof(
        { depthSize: 'small' },
        fc.tuple(
          fc.oneof(keyString, fc.constant('id')),
          leafOp,
          fc.oneof(anyJson, id, fc.array(id, { maxLength: 4 })),
        ),
        fc.tuple(fc.constantFrom('And', 'Or'), fc.array(tie('f'), { maxLength: 3 })),
        fc.tuple(fc.constant('Not'), tie('f')),
        fc.tuple(
          fc.constantFrom('id'),
          fc.constantFrom('Eq', 'Gte', 'In'),
          fc.record({ $ref_new: keyString }),
        ),
      ),
    })).f,
    weight: 6,
  },
  {
    arbitrary: fc
      .integer({ min: 100, max: 10_000 })
      .chain((d) =>
        fc.constantFrom(deep(d, '["And",[', ']]', '["n","Eq",1]'), deep(d, '["Not",', ']', '["id","Eq",1]')),
      ),
    weight: 1,
  },
  { arbitrary: anyJson, weight: 1 },
);

const schemaEntry: fc.Arbitrary<JsonText> = fc.oneof(
  fc.constantFrom(
    'string',
    'int',
    'uint',
    'float',
    'bool',
    'datetime',
    'uuid',
    '[]int',
    '[]string',
    '[2]f32',
    '[3]f16',
    '[0]f32',
    '[99999]f32',
    'blob',
  ),
  fc.record(
    {
      type: fc.constantFrom('string', 'int', '[2]f32', '[]uint', 'nope'),
      filterable: fc.oneof(fc.boolean(), anyJson),
      full_text_search: fc.oneof(fc.boolean(), anyJson),
      regex: fc.oneof(fc.boolean(), anyJson),
      ann: fc.oneof(fc.boolean(), fc.record({ distance_metric: fc.constantFrom('cosine_distance', 'dot') })),
      bogus: anyJson,
    },
    { requiredKeys: [] },
  ),
  anyJson,
);

const schema = fc.dictionary(fc.oneof(keyString, fc.constant('id')), schemaEntry, { maxKeys: 3 });

const hostileWrite = fc
  .record(
    {
      upsert_rows: rows,
      upsert_columns: columns,
      patch_rows: rows,
      patch_columns: columns,
      deletes: fc.oneof(fc.array(id, { maxLength: 5 }), anyJson),
      delete_by_filter: filter,
      delete_by_filter_allow_partial: fc.oneof(fc.boolean(), anyJson),
      patch_by_filter: fc.oneof(
        fc.record({ filters: filter, patch: fc.dictionary(keyString, anyJson, { maxKeys: 2 }) }),
        anyJson,
      ),
      upsert_condition: filter,
      patch_condition: filter,
      delete_condition: filter,
      distance_metric: fc.oneof(
        fc.constantFrom('cosine_distance', 'euclidean_squared', 'manhattan'),
        anyJson,
      ),
      schema: fc.oneof({ arbitrary: schema, weight: 4 }, { arbitrary: anyJson, weight: 1 }),
      encryption: fc.oneof(fc.record({ mode: fc.constantFrom('default', 'customer-managed', 'x') }), anyJson),
      return_affected_ids: fc.oneof(fc.boolean(), anyJson),
      disable_backpressure: fc.oneof(fc.boolean(), anyJson),
      copy_from_namespace: fc.oneof(fc.constantFrom(...NAMESPACES, 'missing', '..'), anyJson),
      create_namespace: fc.oneof(fc.boolean(), anyJson),
      unknown_field: anyJson,
    },
    { requiredKeys: [] },
  )
  .filter((body) => Object.keys(body).length > 0);

const rankBy: fc.Arbitrary<JsonText> = fc.oneof(
  {
    arbitrary: fc.tuple(fc.constantFrom('vector', 'v2', 'n'), fc.constantFrom('ANN', 'kNN'), vector),
    weight: 5,
  },
  {
    arbitrary: fc.tuple(fc.oneof(keyString, fc.constant('id')), fc.constantFrom('asc', 'desc', 'up')),
    weight: 3,
  },
  { arbitrary: fc.array(fc.tuple(keyString, fc.constantFrom('asc', 'desc')), { maxLength: 3 }), weight: 1 },
  { arbitrary: fc.tuple(fc.constant('text'), fc.constant('BM25'), fc.string()), weight: 1 },
  { arbitrary: anyJson, weight: 1 },
);

const limitValue: fc.Arbitrary<JsonText> = fc.oneof(
  fc.integer({ min: -2, max: 10_001 }),
  rawNumber,
  fc.record(
    {
      total: fc.oneof(fc.integer({ min: 0, max: 20 }), rawNumber),
      per: fc.oneof(
        fc.record({
          attributes: fc.array(keyString, { maxLength: 2 }),
          limit: fc.integer({ min: 0, max: 5 }),
        }),
        anyJson,
      ),
    },
    { requiredKeys: [] },
  ),
  anyJson,
);

const subQuery = fc.record(
  {
    rank_by: rankBy,
    top_k: limitValue,
    limit: limitValue,
    offset: fc.oneof(fc.integer({ min: -1, max: 20 }), rawNumber, anyJson),
    filters: filter,
    include_attributes: fc.oneof(fc.boolean(), fc.array(keyString, { maxLength: 3 }), anyJson),
    exclude_attributes: fc.oneof(fc.array(keyString, { maxLength: 2 }), anyJson),
    aggregate_by: fc.oneof(
      fc.dictionary(
        keyString,
        fc.oneof(fc.constant(['Count']), fc.tuple(fc.constantFrom('Sum', 'Count', 'Avg'), keyString)),
        { maxKeys: 2 },
      ),
      anyJson,
    ),
    group_by: fc.oneof(fc.array(keyString, { maxLength: 2 }), anyJson),
    distance_metric: fc.oneof(fc.constantFrom('cosine_distance', 'euclidean_squared'), anyJson),
  },
  { requiredKeys: [] },
);

const hostileQuery = fc.oneof(
  {
    arbitrary: subQuery.chain((q) =>
      fc
        .record(
          {
            consistency: fc.oneof(fc.record({ level: fc.constantFrom('strong', 'eventual', 'x') }), anyJson),
            vector_encoding: fc.oneof(fc.constantFrom('float', 'base64'), anyJson),
          },
          { requiredKeys: [] },
        )
        .map((top) => ({ ...q, ...top })),
    ),
    weight: 5,
  },
  {
    arbitrary: fc.record(
      {
        queries: fc.oneof(fc.array(subQuery, { maxLength: 17 }), anyJson),
        rerank_by: anyJson,
        top_k: limitValue,
      },
      { requiredKeys: ['queries'] },
    ),
    weight: 2,
  },
);

/** A body of valid fields with up to two of `hostile`'s fields mixed in: state builds up and deep paths run. */
function mixed(
  good: fc.Arbitrary<Record<string, JsonText>>,
  hostile: fc.Arbitrary<Record<string, JsonText>>,
) {
  return fc
    .tuple(good, hostile, fc.integer({ min: 0, max: 2 }))
    .map(([valid, bad, n]) => ({ ...valid, ...Object.fromEntries(Object.entries(bad).slice(0, n)) }));
}

const goodVector = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: 2, maxLength: 2 });

const goodWrite = fc.record({
  upsert_rows: fc.array(
    fc.record({
      id: fc.integer({ min: 0, max: 50 }),
      vector: goodVector,
      n: fc.integer({ min: 0, max: 9 }),
      cat: fc.constantFrom('a', 'b', 'c'),
    }),
    { minLength: 1, maxLength: 5 },
  ),
  distance_metric: fc.constant('cosine_distance'),
});

const goodQuery = fc.oneof(
  fc.record({ rank_by: goodVector.map((v) => ['vector', 'ANN', v]), top_k: fc.integer({ min: 1, max: 10 }) }),
  fc.record({
    rank_by: fc.constant<JsonText>(['id', 'asc']),
    filters: fc.integer({ min: 0, max: 9 }).map((n) => ['n', 'Eq', n]),
  }),
);

const writeBody = fc.oneof(
  { arbitrary: goodWrite, weight: 1 },
  { arbitrary: mixed(goodWrite, hostileWrite), weight: 6 },
  { arbitrary: hostileWrite, weight: 2 },
);

const queryBody = fc.oneof(
  { arbitrary: goodQuery, weight: 1 },
  { arbitrary: mixed(goodQuery, hostileQuery as fc.Arbitrary<Record<string, JsonText>>), weight: 5 },
  { arbitrary: hostileQuery, weight: 2 },
);

/** Bytes that are not a JSON object: invalid, truncated, binary, other JSON types. */
const garbageBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"upsert_rows":[{"id":1}',
    'null',
    '[]',
    '"x"',
    '1e309',
    '{"a":1}}',
    '\u0000',
    '{"id":NaN}',
    '{"x":Infinity}',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
  anyJson.map(toJsonText),
);

const namespace = fc.constantFrom(...NAMESPACES);
const json = { 'content-type': 'application/json' };
const gzipped = { ...json, 'content-encoding': 'gzip' };

/** gzip bodies: a whole write, the same cut short, bytes that only claim to be gzip, and a 16 MB bomb of zeros. */
const gzipBody: fc.Arbitrary<Uint8Array> = fc.oneof(
  writeBody.map((body) => gzipSync(toJsonText(body as JsonText))),
  writeBody.map((body) => {
    const whole = gzipSync(toJsonText(body as JsonText));
    return whole.subarray(0, Math.max(1, whole.length >> 1));
  }),
  fc.uint8Array({ maxLength: 100 }).map((b) => Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0]), b])),
  fc.constant(gzipSync(Buffer.alloc(16 * 2 ** 20))),
);

/** Many good rows in one write: the namespace grows and the indexer has work while the other cases run. */
const bigWrite = fc.integer({ min: 200, max: 2000 }).map((n) => ({
  upsert_rows: Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    vector: [Math.sin(i), Math.cos(i)],
    n: i % 10,
  })),
  distance_metric: 'cosine_distance',
}));

export const fuzzCase: fc.Arbitrary<FuzzCase> = fc
  .oneof(
    {
      arbitrary: fc.tuple(namespace, writeBody).map(
        ([ns, body]): FuzzCase => ({
          kind: 'write',
          method: 'POST',
          namespace: ns,
          path: `/v2/namespaces/${ns}`,
          body: toJsonText(body as JsonText),
          headers: json,
        }),
      ),
      weight: 10,
    },
    {
      arbitrary: fc.tuple(namespace, queryBody, fc.constantFrom('query', 'explain_query')).map(
        ([ns, body, route]): FuzzCase => ({
          kind: 'query',
          method: 'POST',
          namespace: ns,
          path: `/v2/namespaces/${ns}/${route}`,
          body: toJsonText(body as JsonText),
          headers: json,
        }),
      ),
      weight: 8,
    },
    {
      arbitrary: fc.tuple(namespace, fc.oneof(schema, anyJson)).map(
        ([ns, body]): FuzzCase => ({
          kind: 'schema',
          method: 'POST',
          namespace: ns,
          path: `/v1/namespaces/${ns}/schema`,
          body: toJsonText(body as JsonText),
          headers: json,
        }),
      ),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(
          namespace,
          fc.oneof(
            fc.record({
              pinning: fc.oneof(
                fc.boolean(),
                fc.record({ replicas: fc.oneof(fc.integer({ min: -1, max: 5 }), rawNumber) }),
                anyJson,
              ),
            }),
            anyJson,
          ),
          fc.constantFrom('GET', 'PATCH'),
        )
        .map(
          ([ns, body, method]): FuzzCase => ({
            kind: 'metadata',
            method,
            namespace: ns,
            path: `/v1/namespaces/${ns}/metadata`,
            body: method === 'GET' ? '' : toJsonText(body as JsonText),
            headers: json,
          }),
        ),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(namespace, garbageBody, fc.constantFrom('', '/query', '/explain_query')).map(
        ([ns, body, route]): FuzzCase => ({
          kind: 'garbage',
          method: 'POST',
          namespace: ns,
          path: `/v2/namespaces/${ns}${route}`,
          body,
          headers: json,
        }),
      ),
      weight: 2,
    },
    {
      arbitrary: fc.tuple(namespace, gzipBody).map(
        ([ns, body]): FuzzCase => ({
          kind: 'gzip',
          method: 'POST',
          namespace: ns,
          path: `/v2/namespaces/${ns}`,
          body,
          headers: gzipped,
        }),
      ),
      weight: 1,
    },
    {
      // Deleting a namespace now and then keeps a long run's state (and memory) bounded.
      arbitrary: namespace.map(
        (ns): FuzzCase => ({
          kind: 'delete',
          method: 'DELETE',
          namespace: ns,
          path: `/v2/namespaces/${ns}`,
          body: '',
          headers: {},
        }),
      ),
      weight: 1,
    },
    {
      arbitrary: fc.tuple(namespace, bigWrite).map(
        ([ns, body]): FuzzCase => ({
          kind: 'write',
          method: 'POST',
          namespace: ns,
          path: `/v2/namespaces/${ns}`,
          body: toJsonText(body as JsonText),
          headers: json,
        }),
      ),
      weight: 1,
    },
  )
  .map(withShortPrint);
