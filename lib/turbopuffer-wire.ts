// Request and response bodies of the turbopuffer API calls the experiments make (docs/turbopuffer-api.md §2-4).
// Only the fields bench sends or reads; the service returns more.

/** POST /v2/namespaces/:ns */
export interface WriteRequest {
  /**
   * Columnar upsert: `id[i]`, `vector[i]` and every other column's `[i]` belong together; vectors as base64
   * little-endian f32.
   */
  upsert_columns: { id: number[]; vector: string[]; [attribute: string]: (number | string)[] };
  distance_metric: 'cosine_distance' | 'euclidean_squared';
  schema?: Record<string, { type: string; ann?: boolean; filterable?: boolean }>;
  disable_backpressure?: boolean;
}

export interface WriteResponse {
  status: string;
  rows_affected?: number;
  rows_upserted?: number;
  billing?: { billable_logical_bytes_written?: number };
}

/** A query's consistency level: strong sees every acknowledged write; eventual skips that round trip. */
export type Consistency = 'strong' | 'eventual';

/** A filter leaf `[attribute, operator, value]` (the experiments send leaves only; `In` takes a list). */
export type FilterLeaf = [string, string, number | string | (number | string)[]];

/** POST /v2/namespaces/:ns/query: ANN or exact kNN on the vector, or order by an attribute. */
export interface QueryRequest {
  rank_by: ['vector', 'ANN' | 'kNN', number[]] | [string, 'asc' | 'desc'];
  top_k: number;
  consistency: { level: Consistency };
  filters?: FilterLeaf;
}

/** The same endpoint counting the rows a filter matches (`aggregate_by`, no rank_by). */
export interface AggregateRequest {
  aggregate_by: Record<string, ['Count']>;
  consistency: { level: Consistency };
  filters?: FilterLeaf;
}

export interface QueryPerformance {
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
}

/** The error envelope of every endpoint. */
export interface ErrorResponse {
  status: 'error';
  error: string;
}
