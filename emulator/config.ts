// The emulator's settings: defaults with units, the `bench emulator` flags that set them, and their checks.
import { parseArgs } from 'node:util';
import { parseGoDuration } from '../core/durations';
import { parseSize } from '../core/sizes';

/**
 * The service's latency structure (`--latency-model service`, the default): waits, never CPU, each from a public
 * figure (emulator/README.md, "Latency model"). `--latency-model none` is null: every answer as fast as the engine.
 */
export interface LatencyModel {
  /** A strong query's freshness round trip to object storage (eventual queries skip it). @default 12 ms */
  strongReadMs: number;
  /** Group commit: a namespace starts at most one log commit per interval. @default 1000 ms */
  commitIntervalMs: number;
  /** One object-storage PUT: a commit is durable, and its writes acknowledged, this long after it starts. @default 100 ms */
  objectPutMs: number;
  /** One object-storage GET (a cold namespace's query pays `coldRoundTrips` of them). @default 63 ms */
  objectGetMs: number;
  /** Sequential object-storage reads that load a cold namespace into the cache. @default 4 */
  coldRoundTrips: number;
}

export const SERVICE_LATENCY: Readonly<LatencyModel> = {
  strongReadMs: 12, // published idle run: strong server p50 16 ms, eventual 4 ms; docs: ~10 ms floor, GCS p50 12-18 ms
  commitIntervalMs: 1000, // architecture docs: at most 1 WAL entry per second per namespace
  objectPutMs: 100, // architecture docs: S3 PUT p50 100 ms
  objectGetMs: 63, // architecture docs: S3 GET p50 63 ms
  coldRoundTrips: 4, // architecture docs: a cold query takes 3-4 round trips
};

export interface EmulatorConfig {
  /** Interface to bind. Loopback unless `allowRemote`. @default '127.0.0.1' */
  host: string;
  /** TCP port; 0 picks a free one. @default 8787 */
  port: number;
  /** Where the write-ahead logs live; null keeps everything in memory (lost on exit). @default null */
  dataDir: string | null;
  /**
   * On damage that is not a torn tail, cut the log there (after copying the files into <dataDir>/salvaged/) instead
   * of refusing to start. @default false
   */
  truncateDamagedLog: boolean;
  /** Unindexed bytes above which writes get 429 and strong queries are refused. @default 2 GiB */
  backlogLimitBytes: number;
  /** How much of the unindexed tail an eventual query scans at most. @default 128 MiB */
  eventualTailLimitBytes: number;
  /** Indexing pace in logical bytes per second; Infinity = as fast as the vector engine goes. @default Infinity */
  indexBytesPerSecond: number;
  /** Bytes at the start of each namespace's log indexed without the pace (a seed at machine speed). */
  indexBurstBytes: number;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`; otherwise any token is accepted. */
  apiKey: string | null;
  /** Permit binding a non-loopback interface (prints a warning). @default false */
  allowRemote: boolean;
  /** Request bodies above this get 413 (turbopuffer: 512 MB per write). @default 512 MiB */
  maxBodyBytes: number;
  /**
   * Request-body bytes held in memory across all requests (as received plus decompressed) above which a new body
   * gets 429; a request alone is always let in. @default 1 GiB
   */
  maxInflightBytes: number;
  /** Query slots per namespace (kNN takes 2, aggregations 4). @default 16 */
  querySlots: number;
  /** How long a query waits for slots before 429. @default 800 ms */
  queryWaitMs: number;
  /** The service's latency structure; null = `--latency-model none` (answers as fast as the engine). */
  latency: LatencyModel | null;
  /**
   * Open connections, idle ones included; past it new connections are closed at once, so idle or slow clients
   * cannot exhaust the process's sockets and memory. @default 4096
   */
  maxConnections: number;
  /**
   * Requests being handled at once, across connections; past it a request gets 429 with retry-after-ms at once,
   * so overload is refused instead of queued without bound. @default 1024
   */
  maxPendingRequests: number;
  /**
   * A request read after the request thread has been busy this long without a break gets 429 at once (load
   * shedding under a CPU-bound overload; emulator/http/overload.ts); 0 never sheds (to measure a saturated
   * emulator's latency). @default 1 s
   */
  maxQueueDelayMs: number;
  /** A request's headers must arrive within this (node:http headersTimeout); else 408 and the connection closes. @default 60 s */
  headersTimeoutMs: number;
  /**
   * A whole request, body included, must arrive within this (node:http requestTimeout): long enough for a
   * 512 MiB write at under 2 MB/s. @default 300 s
   */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this (node:http keepAliveTimeout). @default 65 s */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_CONFIG: Readonly<EmulatorConfig> = {
  host: '127.0.0.1',
  port: 8787,
  dataDir: null,
  truncateDamagedLog: false,
  backlogLimitBytes: 2 * 2 ** 30, // 2 GiB: the stricter reading of the documented "2 GB"
  eventualTailLimitBytes: 128 * 2 ** 20, // 128 MiB
  indexBytesPerSecond: Number.POSITIVE_INFINITY, // bytes/s
  indexBurstBytes: 0,
  apiKey: null,
  allowRemote: false,
  maxBodyBytes: 512 * 2 ** 20, // 512 MiB
  maxInflightBytes: 2 ** 30, // 1 GiB: one largest write plus room for the others
  querySlots: 16,
  queryWaitMs: 800, // ms
  latency: SERVICE_LATENCY,
  maxConnections: 4096,
  maxPendingRequests: 1024,
  // 20x the longest the emulator's own work holds the thread (write turns: 25-50 ms), and above the stalls a loaded
  // 2-core machine adds to a busy but not overloaded emulator.
  maxQueueDelayMs: 1000,
  headersTimeoutMs: 60_000, // node:http's default
  requestTimeoutMs: 300_000, // node:http's default
  keepAliveTimeoutMs: 65_000, // above the 60 s idle timeout common in load balancers and clients
};

export const USAGE = `Usage: bench emulator [flags]

Starts a local turbopuffer-compatible server and prints its base URL (http://HOST:PORT) on one line.

Flags:
  --host HOST                    interface to bind (default 127.0.0.1; loopback only unless --allow-remote)
  --port PORT                    TCP port, 0 for a free one (default 8787)
  --data-dir DIR                 keep write-ahead logs in DIR: acknowledged writes survive a crash (default: memory)
  --truncate-damaged-log         start despite log damage that is not a torn tail: cut each damaged log there,
                                 keeping copies of the files it changes in DIR/salvaged/ (default: refuse to start)
  --max-inflight-bytes SIZE      request-body bytes held across requests before new bodies get 429 (default 1GiB)
  --backlog-limit SIZE           unindexed bytes above which writes and strong queries get 429 (default 2GiB)
  --eventual-tail-limit SIZE     unindexed bytes an eventual query scans at most (default 128MiB)
  --index-throughput RATE        indexing pace, SIZE per second (e.g. 32MiB or 32MiB/s) or unlimited (default)
  --index-burst SIZE             each namespace's first SIZE of writes is indexed as fast as the machine goes, the
                                 rest at --index-throughput: a seed loads in seconds, the backlog drains at the pace
                                 (default 0)
  --latency-model MODEL          service (default): the waits below, as turbopuffer's architecture has them;
                                 none: every answer as fast as the engine (no waits; the flags below are refused)
  --strong-read-latency DURATION a strong query's freshness round trip to object storage (default 12ms)
  --commit-interval DURATION     group commit: at most one log commit per namespace per interval (default 1s)
  --object-put-latency DURATION  one object-storage PUT; a write is acknowledged once its commit's PUT ends
                                 (default 100ms)
  --object-get-latency DURATION  one object-storage GET (default 63ms)
  --cold-round-trips N           GETs in sequence that load a cold namespace into the cache (default 4)
  --max-connections N            open connections at most, idle ones included; more are closed at once (default 4096)
  --max-pending-requests N       requests handled at once; more get 429 with retry-after-ms at once (default 1024)
  --max-queue-delay DURATION     a request read after the request thread was busy this long without a break gets
                                 429 at once: load shedding (default 1s; 0 never sheds)
  --headers-timeout DURATION     a request's headers must arrive within this, else 408 (default 60s)
  --request-timeout DURATION     a whole request, body included, must arrive within this, else 408 (default 300s)
  --keep-alive-timeout DURATION  an idle keep-alive connection is closed after this (default 65s)
  --api-key KEY                  require "Authorization: Bearer KEY" (default: any token is accepted)
  --allow-remote                 allow a non-loopback --host (everyone who can reach it can write)
  -h, --help                     show this help
`;

/** A flag problem: the CLI prints it with the usage and exits 2 before listening. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** True for addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function sizeFlag(flag: string, value: string): number {
  try {
    return parseSize(value);
  } catch (error) {
    throw new ConfigError(`--${flag}: ${(error as Error).message}`);
  }
}

/** Parses "32MiB", "32MiB/s", "32MiB per second" or "unlimited" into bytes per second. */
export function parseThroughput(value: string): number {
  const text = value.trim();
  if (/^(unlimited|inf|infinity)$/i.test(text)) return Number.POSITIVE_INFINITY;
  const size = text.replace(/\s*(\/\s*s|\/\s*sec|per\s*second|ps)$/i, '');
  const bytes = sizeFlag('index-throughput', size);
  if (bytes <= 0)
    throw new ConfigError(`--index-throughput: must be above 0 (or "unlimited"), got "${value}"`);
  return bytes;
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535)
    throw new ConfigError(`--port: expected a whole number from 0 to 65535, got "${value}"`);
  return Number(value);
}

function durationFlag(flag: string, value: string): number {
  // A unit is required: a bare "1" could mean a second or a millisecond.
  const ms = parseGoDuration(value);
  if (ms === undefined || !(ms >= 0) || !Number.isFinite(ms))
    throw new ConfigError(
      `--${flag}: expected a duration of 0 or more with its unit, like "12ms" or "1s", got "${value}"`,
    );
  return ms;
}

const COUNT_FLAGS = {
  'max-connections': 'maxConnections',
  'max-pending-requests': 'maxPendingRequests',
} as const satisfies Record<string, keyof EmulatorConfig>;

const TIMEOUT_FLAGS = {
  'max-queue-delay': 'maxQueueDelayMs',
  'headers-timeout': 'headersTimeoutMs',
  'request-timeout': 'requestTimeoutMs',
  'keep-alive-timeout': 'keepAliveTimeoutMs',
} as const satisfies Record<string, keyof EmulatorConfig>;

const LATENCY_FLAGS = {
  'strong-read-latency': 'strongReadMs',
  'commit-interval': 'commitIntervalMs',
  'object-put-latency': 'objectPutMs',
  'object-get-latency': 'objectGetMs',
} as const satisfies Record<string, keyof LatencyModel>;

function latencyFlags(v: Record<string, string | boolean | undefined>): LatencyModel | null {
  const model = v['latency-model'] ?? 'service';
  const given = [...Object.keys(LATENCY_FLAGS), 'cold-round-trips'].filter((f) => v[f] !== undefined);
  if (model === 'none') {
    if (given.length > 0)
      throw new ConfigError(
        `--${given[0]}: has no effect with --latency-model none; drop one of them (the default model is "service")`,
      );
    return null;
  }
  if (model !== 'service')
    throw new ConfigError(`--latency-model: expected "service" or "none", got "${model}"`);
  const latency: LatencyModel = { ...SERVICE_LATENCY };
  for (const [flag, key] of Object.entries(LATENCY_FLAGS)) {
    const value = v[flag];
    if (typeof value === 'string') latency[key] = durationFlag(flag, value);
  }
  const trips = v['cold-round-trips'];
  if (typeof trips === 'string') {
    if (!/^\d+$/.test(trips) || Number(trips) > 100)
      throw new ConfigError(`--cold-round-trips: expected a whole number from 0 to 100, got "${trips}"`);
    latency.coldRoundTrips = Number(trips);
  }
  return latency;
}

/** `bench emulator` flags -> config, or 'help'. Throws ConfigError naming the flag on bad input. */
export function parseFlags(argv: string[]): EmulatorConfig | 'help' {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: false });
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const v = parsed.values;
  if (v.help) return 'help';
  const config: EmulatorConfig = { ...DEFAULT_CONFIG };
  if (v.host !== undefined) config.host = v.host;
  if (v.port !== undefined) config.port = parsePort(v.port);
  if (v['data-dir'] !== undefined) {
    if (v['data-dir'].trim() === '') throw new ConfigError('--data-dir: expected a directory path');
    config.dataDir = v['data-dir'];
  }
  config.truncateDamagedLog = v['truncate-damaged-log'] === true;
  if (config.truncateDamagedLog && config.dataDir === null)
    throw new ConfigError('--truncate-damaged-log: only applies with --data-dir');
  if (v['max-inflight-bytes'] !== undefined) {
    config.maxInflightBytes = sizeFlag('max-inflight-bytes', v['max-inflight-bytes']);
    if (config.maxInflightBytes <= 0)
      throw new ConfigError(`--max-inflight-bytes: must be above 0, got "${v['max-inflight-bytes']}"`);
  }
  if (v['backlog-limit'] !== undefined)
    config.backlogLimitBytes = sizeFlag('backlog-limit', v['backlog-limit']);
  if (v['eventual-tail-limit'] !== undefined)
    config.eventualTailLimitBytes = sizeFlag('eventual-tail-limit', v['eventual-tail-limit']);
  if (v['index-throughput'] !== undefined)
    config.indexBytesPerSecond = parseThroughput(v['index-throughput']);
  if (v['index-burst'] !== undefined) {
    config.indexBurstBytes = sizeFlag('index-burst', v['index-burst']);
    if (!Number.isFinite(config.indexBytesPerSecond))
      throw new ConfigError(
        '--index-burst: only applies with a paced --index-throughput (indexing is unlimited)',
      );
  }
  const given = v as Record<string, string | boolean | undefined>;
  for (const [flag, key] of Object.entries(COUNT_FLAGS)) {
    const value = given[flag];
    if (typeof value !== 'string') continue;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000)
      throw new ConfigError(`--${flag}: expected a whole number from 1 to 1000000, got "${value}"`);
    config[key] = Number(value);
  }
  for (const [flag, key] of Object.entries(TIMEOUT_FLAGS)) {
    const value = given[flag];
    if (typeof value !== 'string') continue;
    config[key] = durationFlag(flag, value);
    if (config[key] <= 0 && key !== 'maxQueueDelayMs')
      throw new ConfigError(`--${flag}: must be above 0, got "${value}"`);
  }
  if (config.headersTimeoutMs > config.requestTimeoutMs)
    throw new ConfigError(
      `--headers-timeout: must not exceed --request-timeout (${config.headersTimeoutMs} ms > ${config.requestTimeoutMs} ms)`,
    );
  if (v['api-key'] !== undefined) {
    if (v['api-key'] === '') throw new ConfigError('--api-key: expected a non-empty key');
    config.apiKey = v['api-key'];
  }
  config.latency = latencyFlags(v);
  config.allowRemote = v['allow-remote'] === true;
  if (!config.allowRemote && !isLoopbackHost(config.host))
    throw new ConfigError(
      `--host ${config.host} is not a loopback address: the emulator accepts writes from anyone who can reach it. ` +
        'Use 127.0.0.1 (default), or add --allow-remote if you really mean it.',
    );
  return config;
}

const OPTIONS = {
  host: { type: 'string' },
  port: { type: 'string' },
  'data-dir': { type: 'string' },
  'truncate-damaged-log': { type: 'boolean' },
  'max-inflight-bytes': { type: 'string' },
  'backlog-limit': { type: 'string' },
  'eventual-tail-limit': { type: 'string' },
  'index-throughput': { type: 'string' },
  'index-burst': { type: 'string' },
  'latency-model': { type: 'string' },
  'strong-read-latency': { type: 'string' },
  'commit-interval': { type: 'string' },
  'object-put-latency': { type: 'string' },
  'object-get-latency': { type: 'string' },
  'cold-round-trips': { type: 'string' },
  'max-connections': { type: 'string' },
  'max-pending-requests': { type: 'string' },
  'max-queue-delay': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'keep-alive-timeout': { type: 'string' },
  'api-key': { type: 'string' },
  'allow-remote': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
