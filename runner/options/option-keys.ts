// Every k6 option key the runner knows, with how its K6_* environment form is parsed. Unknown script keys only warn.

/** How an option's value is read from an environment variable (and from a CLI flag argument). */
export type OptionKind = 'int' | 'float' | 'bool' | 'duration' | 'string' | 'list' | 'tags' | 'json';

/** Known option keys in the order `bench inspect` prints them, with their kind. */
export const OPTION_KEYS: ReadonlyArray<readonly [string, OptionKind]> = [
  ['paused', 'bool'],
  ['vus', 'int'],
  ['duration', 'duration'],
  ['iterations', 'int'],
  ['stages', 'json'],
  ['scenarios', 'json'],
  ['executionSegment', 'string'],
  ['executionSegmentSequence', 'string'],
  ['noSetup', 'bool'],
  ['setupTimeout', 'duration'],
  ['noTeardown', 'bool'],
  ['teardownTimeout', 'duration'],
  ['handleSummaryTimeout', 'duration'],
  ['rps', 'int'],
  ['dns', 'json'],
  ['maxRedirects', 'int'],
  ['userAgent', 'string'],
  ['batch', 'int'],
  ['batchPerHost', 'int'],
  ['httpDebug', 'string'],
  ['insecureSkipTLSVerify', 'bool'],
  ['tlsCipherSuites', 'list'],
  ['tlsVersion', 'json'],
  ['tlsAuth', 'json'],
  ['throw', 'bool'],
  ['thresholds', 'json'],
  ['blacklistIPs', 'list'],
  ['blockHostnames', 'list'],
  ['hosts', 'json'],
  ['noConnectionReuse', 'bool'],
  ['noVUConnectionReuse', 'bool'],
  ['minIterationDuration', 'duration'],
  ['ext', 'json'],
  ['summaryTrendStats', 'list'],
  ['summaryTimeUnit', 'string'],
  ['systemTags', 'list'],
  ['tags', 'tags'],
  ['metricSamplesBufferSize', 'int'],
  ['noCookiesReset', 'bool'],
  ['discardResponseBodies', 'bool'],
  ['consoleOutput', 'string'],
  ['localIPs', 'list'],
  ['cloud', 'json'],
];

export const KNOWN_OPTION_KEYS: ReadonlySet<string> = new Set(OPTION_KEYS.map(([k]) => k));

/**
 * Options k6 knows that this runner accepts but does not implement: setting one logs a warning at start-up
 * (engine/prepare.ts), never silently, and their `bench run` flags say so in the help (cli/flags.ts).
 */
export const UNIMPLEMENTED_OPTIONS: readonly string[] = [
  'paused',
  'rps',
  'dns',
  'blacklistIPs',
  'blockHostnames',
  'hosts',
  'tlsAuth',
  'localIPs',
  'metricSamplesBufferSize',
];

/** The options that define how the test executes: a layer setting any of them discards all four from lower layers. */
export const EXECUTION_KEYS = ['duration', 'iterations', 'stages', 'scenarios'] as const;

/** k6 option name -> its environment variable ("setupTimeout" -> "K6_SETUP_TIMEOUT"). */
export function envNameOf(key: string): string {
  return `K6_${key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toUpperCase()}`;
}

/** Default system tags (k6 `systemTags` when unset). */
export const DEFAULT_SYSTEM_TAGS: readonly string[] = [
  'proto',
  'subproto',
  'status',
  'method',
  'url',
  'name',
  'group',
  'check',
  'error',
  'error_code',
  'tls_version',
  'scenario',
  'service',
  'expected_response',
];

export const ALL_SYSTEM_TAGS: ReadonlySet<string> = new Set([
  ...DEFAULT_SYSTEM_TAGS,
  'vu',
  'iter',
  'ip',
  'ocsp_status',
]);

export const DEFAULT_TREND_STATS: readonly string[] = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];
