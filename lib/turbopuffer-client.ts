// turbopuffer over k6/http: base URL, auth and request tags set once; scenarios build no URLs. The API key goes
// only into the Authorization header, never into tags, names, logs or results; the `name` tag (write, query,
// metadata, delete) keeps URL cardinality low.
import encoding from 'k6/encoding';
import http, { type Params, type RefinedResponse, type ResponseType } from 'k6/http';
import { EMULATOR_SETTINGS_PATH, type EmulatorInfo } from './emulator-info';
import type {
  AggregateRequest,
  ErrorResponse,
  NamespaceMetadata,
  QueryRequest,
  QueryResponse,
  WriteRequest,
  WriteResponse,
} from './turbopuffer-wire';
import { rowVectorsBytes } from './vectors';

export type Tags = Record<string, string>;

export interface CallResult<T> {
  status: number;
  /** Parsed body of a 2xx response. */
  body?: T;
  /** Error text for logs: the service's `error` message or the network error (never a request header). */
  error?: string;
  /** `retry-after-ms` of a 429, when the server sent one. */
  retryAfterMs?: number;
  /** k6's `timings.duration` of the request (sending + waiting + receiving), ms. */
  durationMs?: number;
}

export class TurbopufferClient {
  private readonly headers: Record<string, string>;

  constructor(
    private readonly baseUrl: string,
    apiKey: string | undefined,
  ) {
    this.headers = { 'Content-Type': 'application/json' };
    if (apiKey) this.headers.Authorization = `Bearer ${apiKey}`;
  }

  write(namespace: string, body: WriteRequest, tags: Tags = {}): CallResult<unknown> {
    const res = http.post(this.url(namespace), JSON.stringify(body), this.params('write', tags, '120s'));
    return this.result(res, false);
  }

  /**
   * Several writes in flight at once (http.batch; k6's `batchPerHost` option caps the parallelism), results in
   * request order with parsed bodies. The bodies come serialised so the caller can count their bytes.
   */
  writeMany(namespace: string, bodies: readonly string[], tags: Tags = {}): CallResult<WriteResponse>[] {
    const params = this.params('write', tags, '300s');
    const responses = http.batch(bodies.map((body) => ['POST', this.url(namespace), body, params] as const));
    return responses.map((res) => ({
      ...this.result<WriteResponse>(res, true),
      durationMs: res.timings.duration,
    }));
  }

  query(
    namespace: string,
    body: QueryRequest | AggregateRequest,
    tags: Tags = {},
  ): CallResult<QueryResponse> {
    const res = http.post(
      `${this.url(namespace)}/query`,
      JSON.stringify(body),
      this.params('query', tags, '30s'),
    );
    return this.result<QueryResponse>(res, true);
  }

  metadata(namespace: string, tags: Tags = {}): CallResult<NamespaceMetadata> {
    return this.getMetadata(namespace, this.params('metadata', tags, '15s'));
  }

  /**
   * Metadata asked only to learn whether the namespace exists: its 404 is the expected answer before a fresh
   * namespace is created, so it does not count in http_req_failed (a clean run would otherwise report failed
   * requests in its progress lines and summary).
   */
  existenceProbe(namespace: string): CallResult<NamespaceMetadata> {
    return this.getMetadata(namespace, {
      ...this.params('metadata', {}, '15s'),
      responseCallback: http.expectedStatuses(200, 404),
    });
  }

  private getMetadata(namespace: string, params: Params): CallResult<NamespaceMetadata> {
    return this.result<NamespaceMetadata>(http.get(`${this.url(namespace)}/metadata`, params), true);
  }

  /**
   * What a bench emulator says about itself (lib/emulator-info.ts); null from any other server (404) or on failure.
   * Only asked of loopback targets: the real service has no such route.
   */
  emulatorInfo(): EmulatorInfo | null {
    const res = http.get(`${this.baseUrl}${EMULATOR_SETTINGS_PATH}`, {
      ...this.params('emulator_settings', {}, '10s'),
      responseCallback: http.expectedStatuses(200, 404),
    });
    return this.result<EmulatorInfo>(res, true).body ?? null;
  }

  deleteNamespace(namespace: string): CallResult<unknown> {
    return this.result(http.del(this.url(namespace), null, this.params('delete', {}, '60s')), false);
  }

  private url(namespace: string): string {
    return `${this.baseUrl}/v2/namespaces/${encodeURIComponent(namespace)}`;
  }

  private params(name: string, tags: Tags, timeout: string) {
    return { headers: this.headers, tags: { ...tags, name }, timeout };
  }

  private result<T>(res: RefinedResponse<ResponseType | undefined>, parse: boolean): CallResult<T> {
    const status = res.status;
    if (status >= 200 && status < 300) {
      if (!parse) return { status };
      try {
        return { status, body: res.json() as T };
      } catch {
        return { status: 0, error: `unparsable ${status} response body` };
      }
    }
    const out: CallResult<T> = { status, error: errorText(res) };
    const retry = Number(res.headers['Retry-After-Ms']);
    if (Number.isFinite(retry) && retry > 0) out.retryAfterMs = retry;
    return out;
  }
}

function errorText(res: RefinedResponse<ResponseType | undefined>): string {
  if (res.status === 0) return res.error || 'no response';
  const body = typeof res.body === 'string' ? res.body : '';
  try {
    const parsed = JSON.parse(body) as Partial<Record<keyof ErrorResponse, unknown>>;
    if (typeof parsed.error === 'string') return parsed.error.slice(0, 300);
  } catch {
    // Not the JSON error envelope: fall through to the raw text.
  }
  return body.slice(0, 300) || `HTTP ${res.status}`;
}

/**
 * An upsert_columns body for rows `firstId .. firstId + count - 1` with their seeded vectors as base64, plus any
 * extra attribute `columns` (same length) whose schema entries go into `attributeSchema`.
 */
export function upsertBody(
  seed: number,
  firstId: number,
  count: number,
  dims: number,
  options: {
    schema: boolean;
    disableBackpressure: boolean;
    columns?: Record<string, (number | string)[]>;
    attributeSchema?: NonNullable<WriteRequest['schema']>;
  },
): WriteRequest {
  const bytes = rowVectorsBytes(seed, firstId, count, dims);
  const ids = new Array<number>(count);
  const vectors = new Array<string>(count);
  const rowLength = dims * 4;
  for (let r = 0; r < count; r++) {
    ids[r] = firstId + r;
    vectors[r] = encoding.b64encode(bytes.slice(r * rowLength, (r + 1) * rowLength), 'std');
  }
  const body: WriteRequest = {
    upsert_columns: { ...options.columns, id: ids, vector: vectors },
    distance_metric: 'cosine_distance',
  };
  if (options.schema)
    body.schema = { vector: { type: `[${dims}]f32`, ann: true }, ...options.attributeSchema };
  if (options.disableBackpressure) body.disable_backpressure = true;
  return body;
}
