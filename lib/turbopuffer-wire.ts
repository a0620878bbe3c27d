// The turbopuffer API's request and response bodies (docs/turbopuffer-api.md §2-4), declared once for both sides of
// bench: the experiments build these bodies, and the emulator's parsers (emulator/wire/) check the fields it serves
// against the same names and unions, so the two cannot drift apart. Request field lists cover what the emulator
// serves; WriteRequest, QueryRequest and AggregateRequest narrow them to what the experiments send. Responses list
// only the fields bench reads; the service returns more. Types only: k6 imports this file.

/** A query's read consistency (§3.4). */
export type Consistency = 'strong' | 'eventual';

/** How a vector column measures distance (§2.1); lower is closer. */
export type DistanceMetric = 'cosine_distance' | 'euclidean_squared';

/** How a query returns vectors (§2.3): number arrays or base64 little-endian f32. */
export type VectorEncoding = 'float' | 'base64';

/** The operator of a filter leaf (§3.3), including those that need full-text or fuzzy indexes. */
export type FilterOperator =
  | 'Eq'
  | 'NotEq'
  | 'In'
  | 'NotIn'
  | 'Lt'
  | 'Lte'
  | 'Gt'
  | 'Gte'
  | 'Contains'
  | 'NotContains'
  | 'ContainsAny'
  | 'NotContainsAny'
  | 'AnyLt'
  | 'AnyLte'
  | 'AnyGt'
  | 'AnyGte'
  | 'Glob'
  | 'NotGlob'
  | 'IGlob'
  | 'NotIGlob'
  | 'Regex'
  | 'Fuzzy'
  | 'ContainsAllTokens'
  | 'ContainsAnyToken'
  | 'ContainsTokenSequence';

type FilterScalar = string | number | boolean | null;

/** What a leaf compares with: a value, a list (In, ContainsAny, ...), or in a write condition the new document's. */
type FilterValue = FilterScalar | FilterScalar[] | { $ref_new: string };

/** A filter leaf `[attribute, operator, value]`; `id` is an attribute too. */
export type FilterLeaf<
  Op extends FilterOperator = FilterOperator,
  Value extends FilterValue = FilterValue,
> = [attribute: string, operator: Op, value: Value];

/** A token filter with its options: `[attribute, "ContainsAnyToken", text, {last_as_prefix: true}]`. */
type TokenFilterLeaf = [
  attribute: string,
  operator: 'ContainsAllTokens' | 'ContainsAnyToken' | 'ContainsTokenSequence',
  value: string | string[],
  params: TextMatchParams,
];

/** A filter: a leaf, or filters combined. */
type Filter = FilterLeaf | TokenFilterLeaf | ['And', Filter[]] | ['Or', Filter[]] | ['Not', Filter];

/** Ordering by an attribute (§3.2). */
type OrderBy = [attribute: string, direction: 'asc' | 'desc'];

/** ANN or exact kNN on a vector column, the query vector as numbers or base64 (§3.2). */
type VectorRank = [column: string, kind: 'ANN' | 'kNN', vector: number[] | string];

/** `last_as_prefix`: the last token of the query text matches as a prefix (type-ahead, §3.2). */
interface TextMatchParams {
  last_as_prefix?: boolean;
}

/** BM25 on a full-text attribute: the query as text, or as tokens for a pre-tokenized attribute (§3.2). */
type Bm25Rank =
  | [attribute: string, kind: 'BM25', query: string | string[]]
  | [attribute: string, kind: 'BM25', query: string | string[], params: TextMatchParams];

/** Full-text rank expressions (§3.2): BM25 clauses combined, weighted, with attribute values and filters (1 when matched). */
export type TextRank =
  | Bm25Rank
  | ['Sum', TextRank[]]
  | ['Max', TextRank[]]
  | ['Product', number, TextRank]
  | ['Product', TextRank, number]
  | ['Attribute', attribute: string]
  | Filter;

type RankBy = VectorRank | OrderBy | OrderBy[] | TextRank;

/** Fusion of a multi-query's sub-query results (§3.6): reciprocal rank fusion. */
type RerankBy = ['RRF'] | ['RRF', { rank_constant?: number; weights?: number[] }];

/** An aggregation (§3.1): a count of rows, of an attribute's non-null values, or a sum. */
export type AggregateFunction = ['Count'] | ['Count', attribute: string] | ['Sum', attribute: string];

/** A full-text attribute's language: its stop words and Snowball stemmer (§2.2). */
export type FullTextLanguage =
  | 'arabic'
  | 'danish'
  | 'dutch'
  | 'english'
  | 'finnish'
  | 'french'
  | 'german'
  | 'greek'
  | 'hungarian'
  | 'italian'
  | 'norwegian'
  | 'portuguese'
  | 'romanian'
  | 'russian'
  | 'spanish'
  | 'swedish'
  | 'tamil'
  | 'turkish';

/** How a full-text attribute splits text into tokens (§2.2). */
export type FullTextTokenizer =
  | 'pre_tokenized_array'
  | 'word_v0'
  | 'word_v1'
  | 'word_v2'
  | 'word_v3'
  | 'word_v4';

/** `full_text_search`'s options (§2.2), as the Python SDK 3.1 types them, plus `index_prefixes` (tpufbench sends it). */
export interface FullTextSearchConfig {
  language?: FullTextLanguage;
  stemming?: boolean;
  remove_stopwords?: boolean;
  case_sensitive?: boolean;
  ascii_folding?: boolean;
  tokenizer?: FullTextTokenizer;
  k1?: number;
  b?: number;
  max_token_length?: number;
  index_prefixes?: boolean;
}

/** A schema entry's options (§2.2); the emulator refuses fuzzy, embed and sparse_knn. */
export interface SchemaOptions {
  /** `string`, `int`, `[]int`, `[768]f32`, ... */
  type: string;
  filterable?: boolean;
  ann?: boolean | { distance_metric?: DistanceMetric };
  full_text_search?: boolean | FullTextSearchConfig;
  regex?: boolean;
  glob?: boolean;
  fuzzy?: unknown;
  embed?: unknown;
  sparse_knn?: unknown;
}

/** A schema entry: a type name alone, with its options, or `{drop: true}` (removes the attribute, §2.2). */
type SchemaEntry = string | SchemaOptions | { drop: true };

/** copy_from_namespace's object form, as the SDKs send it. */
export interface CopyFromNamespace {
  source_namespace: string;
  source_region?: string;
  source_api_key?: string;
  dest_encryption?: { mode: string };
}

type DocId = number | string;

/** POST /v2/namespaces/:ns: every field of a write (§2.1). */
export interface WriteFields {
  upsert_rows?: ({ id: DocId } & Record<string, unknown>)[];
  upsert_columns?: { id: DocId[] } & Record<string, unknown>;
  patch_rows?: ({ id: DocId } & Record<string, unknown>)[];
  patch_columns?: { id: DocId[] } & Record<string, unknown>;
  deletes?: DocId[];
  delete_by_filter?: Filter;
  delete_by_filter_allow_partial?: boolean;
  patch_by_filter?: { filters: Filter; patch: Record<string, unknown> };
  patch_by_filter_allow_partial?: boolean;
  upsert_condition?: Filter;
  patch_condition?: Filter;
  delete_condition?: Filter;
  distance_metric?: DistanceMetric;
  /** Attribute -> entry; `id` declares the id type (`uint`, `int`, `string`, `uuid`). */
  schema?: Record<string, SchemaEntry>;
  disable_backpressure?: boolean;
  return_affected_ids?: boolean;
  copy_from_namespace?: string | CopyFromNamespace;
  create_namespace?: boolean;
  branch_from_namespace?: unknown;
  encryption?: { mode: string };
  /** On a namespace's first write only (§2.1). */
  sharding?: { num_shards: number };
}

/** The write the experiments send. */
export interface WriteRequest extends WriteFields {
  /**
   * Columnar upsert: `id[i]`, `vector[i]` and every other column's `[i]` belong together; vectors as base64
   * little-endian f32.
   */
  upsert_columns: { id: number[]; vector: string[]; [attribute: string]: (number | string)[] };
  distance_metric: DistanceMetric;
  schema?: Record<string, { type: string; ann?: boolean; filterable?: boolean }>;
}

export interface WriteResponse {
  status: string;
  rows_affected?: number;
  rows_upserted?: number;
  billing?: { billable_logical_bytes_written?: number };
}

/** One query's fields (§3.1), alone or as one of a multi-query's `queries` (§3.6). */
export interface QueryFields {
  rank_by?: RankBy;
  top_k?: number;
  limit?: number | { total: number; per?: { attributes: string[]; limit: number } };
  offset?: number;
  filters?: Filter;
  include_attributes?: boolean | string[];
  exclude_attributes?: string[];
  aggregate_by?: Record<string, AggregateFunction>;
  group_by?: (string | Record<string, ['ForEachUnique', attribute: string]>)[];
  distance_metric?: DistanceMetric;
  /** Not in the SDKs' types: tpufbench's cold-cache runs send it. */
  disable_cache?: boolean;
}

/** POST /v2/namespaces/:ns/query: a query, or several with `queries`, and what applies to all of them. */
export interface QueryRequestFields extends QueryFields {
  consistency?: { level: Consistency; max_staleness_seconds?: number };
  vector_encoding?: VectorEncoding;
  queries?: QueryFields[];
  /** With `queries`: fuse the sub-queries' rows into one result; `limit` and `offset` then apply to it (§3.6). */
  rerank_by?: RerankBy;
}

/** The query the experiments send: ANN or exact kNN on the vector, or order by an attribute. */
export interface QueryRequest extends QueryRequestFields {
  rank_by: ['vector', 'ANN' | 'kNN', number[]] | OrderBy;
  top_k: number;
  consistency: { level: Consistency };
  /** The experiments send single leaves. */
  filters?: FilterLeaf;
}

/** The same endpoint counting the rows a filter matches (`aggregate_by`, no rank_by). */
export interface AggregateRequest extends QueryRequestFields {
  aggregate_by: Record<string, ['Count']>;
  consistency: { level: Consistency };
  filters?: FilterLeaf;
}

interface QueryPerformance {
  /** Whole milliseconds, as the SDKs declare them. */
  server_total_ms?: number;
  query_execution_ms?: number;
  /** bench's emulator only: the same clocks to hundredths of a millisecond. */
  emulator_server_total_ms?: number;
  emulator_query_execution_ms?: number;
  exhaustive_search_count?: number;
  approx_namespace_size?: number;
  cache_hit_ratio?: number;
  cache_temperature?: string;
}

export interface QueryResponse {
  /** `$dist`: the distance for vector ranking, the score for full-text and fused ranking. */
  rows?: { id: number | string; $dist?: number }[];
  /** With aggregate_by: label -> value. */
  aggregations?: Record<string, number>;
  performance?: QueryPerformance;
  billing?: { billable_logical_bytes_queried?: number; billable_logical_bytes_returned?: number };
}

/** GET /v2/namespaces/:ns/metadata */
export interface NamespaceMetadata {
  approx_row_count?: number;
  approx_logical_bytes?: number;
  index?: { status: 'up-to-date' | 'updating'; unindexed_bytes?: number; unindexed_rows?: number };
  /** Present only when pinned (§4). */
  pinning?: { replicas?: number };
  /** Present only when true (§4). */
  read_only?: boolean;
  sharding?: { num_shards: number };
}

/** PATCH /v1/namespaces/:ns/metadata (§4). */
export interface MetadataUpdate {
  pinning?: boolean | { replicas?: number } | null;
  read_only?: boolean;
}

/** The error envelope of every endpoint. */
export interface ErrorResponse {
  status: 'error';
  error: string;
}
