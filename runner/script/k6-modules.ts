// The table of k6 imports the runner provides, with each module's named exports; anything else fails before the
// run (exit 107) with a message naming the import.

/** The realm global holding k6/timers, which the bundle's timer globals are bound to (runner/script/bundle.ts). */
export const TIMERS_GLOBAL = '__bench_k6_timers';

/** The realm global `import.meta.resolve` is bound to (runner/script/bundle.ts, runner/vu/realm.ts). */
export const IMPORT_META_RESOLVE_GLOBAL = '__bench_import_meta_resolve';

/** Where the classic-script bundle for hosted VUs (`--vu-threads`) leaves the script's exports. */
export const HOSTED_EXPORTS = '__bench_k6_exports';

/**
 * Web globals a hosted VU's vm context gets from the host thread (a fresh context has only the language's own): the
 * ones k6 scripts use. The realm installs them (runner/vu/realm.ts); the hosting analysis allows them
 * (runner/script/hosting.ts).
 */
export const HOSTED_WEB_GLOBALS = [
  'TextEncoder',
  'TextDecoder',
  'URL',
  'URLSearchParams',
  'atob',
  'btoa',
  'structuredClone',
  'queueMicrotask',
  'crypto',
] as const;

/** Supported module id -> named exports (the default export is always the module object). */
export const K6_MODULES: Record<string, readonly string[]> = {
  k6: ['check', 'group', 'sleep', 'fail', 'randomSeed'],
  'k6/http': [
    'request',
    'get',
    'head',
    'post',
    'put',
    'patch',
    'del',
    'options',
    'batch',
    'asyncRequest',
    'url',
    'file',
    'cookieJar',
    'CookieJar',
    'expectedStatuses',
    'setResponseCallback',
    'TLS_1_0',
    'TLS_1_1',
    'TLS_1_2',
    'TLS_1_3',
    'OCSP_STATUS_GOOD',
    'OCSP_STATUS_REVOKED',
    'OCSP_STATUS_SERVER_FAILED',
    'OCSP_STATUS_UNKNOWN',
    'OCSP_REASON_UNSPECIFIED',
    'OCSP_REASON_KEY_COMPROMISE',
    'OCSP_REASON_CA_COMPROMISE',
    'OCSP_REASON_AFFILIATION_CHANGED',
    'OCSP_REASON_SUPERSEDED',
    'OCSP_REASON_CESSATION_OF_OPERATION',
    'OCSP_REASON_CERTIFICATE_HOLD',
    'OCSP_REASON_REMOVE_FROM_CRL',
    'OCSP_REASON_PRIVILEGE_WITHDRAWN',
    'OCSP_REASON_AA_COMPROMISE',
  ],
  'k6/metrics': ['Counter', 'Gauge', 'Rate', 'Trend'],
  'k6/execution': ['scenario', 'instance', 'vu', 'test'],
  'k6/encoding': ['b64encode', 'b64decode'],
  'k6/html': ['parseHTML'],
  'k6/ws': ['connect'],
  'k6/crypto/x509': ['parse', 'getAltNames', 'getIssuer', 'getSubject'],
  'k6/browser': ['browser', 'chromium', 'devices', 'networkProfiles'],
  'k6/net/grpc': [
    'Client',
    'Stream',
    'StatusOK',
    'StatusCanceled',
    'StatusUnknown',
    'StatusInvalidArgument',
    'StatusDeadlineExceeded',
    'StatusNotFound',
    'StatusAlreadyExists',
    'StatusPermissionDenied',
    'StatusResourceExhausted',
    'StatusFailedPrecondition',
    'StatusAborted',
    'StatusOutOfRange',
    'StatusUnimplemented',
    'StatusInternal',
    'StatusUnavailable',
    'StatusDataLoss',
    'StatusUnauthenticated',
  ],
  'k6/secrets': ['get', 'source'],
  'k6/websockets': ['WebSocket', 'Blob'],
  'k6/experimental/fs': ['open', 'SeekMode', 'File'],
  'k6/experimental/csv': ['parse', 'Parser'],
  'k6/experimental/streams': [
    'ReadableStream',
    'ReadableStreamDefaultReader',
    'CountQueuingStrategy',
    'WritableStream',
    'WritableStreamDefaultWriter',
  ],
  'k6/experimental/websockets': ['WebSocket', 'Blob'],
  'k6/timers': ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  'k6/data': ['SharedArray'],
  'k6/crypto': [
    'md4',
    'md5',
    'sha1',
    'sha256',
    'sha384',
    'sha512',
    'sha512_224',
    'sha512_256',
    'ripemd160',
    'hmac',
    'createHash',
    'createHMAC',
    'randomBytes',
    'hexEncode',
  ],
  // Independent equivalent of jslib's k6-summary (never a copy of it): textSummary and jUnit.
  'jslib:k6-summary': ['textSummary', 'jUnit', 'humanizeValue'],
};

/** Remote jslib URLs served by a built-in equivalent instead of a download. */
export const REMOTE_MODULES: Record<string, string> = {
  'https://jslib.k6.io/k6-summary/0.0.2/index.js': 'jslib:k6-summary',
  'https://jslib.k6.io/k6-summary/0.0.1/index.js': 'jslib:k6-summary',
  'https://jslib.k6.io/k6-summary/0.1.0/index.js': 'jslib:k6-summary',
};

/** Modules k6 v2.2 removed: importing one fails with k6's own message (exit 107). */
const REMOVED_MODULES: Record<string, string> = {
  'k6/experimental/redis':
    "k6/experimental/redis has been removed. Please migrate to the new version by changing your import to 'k6/x/redis'. Read more here: https://grafana.com/docs/k6/latest/javascript-api/k6-x-redis",
  'k6/experimental/browser':
    'k6/experimental/browser has been graduated, please use k6/browser instead.Please update your imports to use k6/browser instead of k6/experimental/browser, For more information, see the migration guide at the link: https://grafana.com/docs/k6/latest/using-k6-browser/migrating-to-k6-v0-52/',
  'k6/experimental/grpc':
    'k6/experimental/grpc has been graduated, please use k6/net/grpc instead. See https://grafana.com/docs/k6/latest/javascript-api/k6-net-grpc/ for more information.',
  'k6/experimental/timers':
    "k6/experimental/timers has been graduated, and it's now globally available as defined by standard WebAPIs. You just need to remove the import.",
  'k6/experimental/tracing':
    'k6/experimental/tracing has been removed. All of it functionality is available as pure JavaScript module. More info available at the docs: https://grafana.com/docs/k6/latest/javascript-api/jslib/http-instrumentation-tempo',
  'k6/experimental/webcrypto':
    "k6/experimental/webcrypto has been graduated and it's now globally available as defined by standard WebAPIs. You just need to remove the import.",
};

/** Why an import cannot be served, or undefined when it can. */
export function unsupportedReason(id: string): string | undefined {
  if (id in K6_MODULES || id in REMOTE_MODULES) return undefined;
  if (id in REMOVED_MODULES) return REMOVED_MODULES[id];
  if (id.startsWith('k6/x/'))
    return `unknown module: ${id} (k6 extensions are not supported by bench's runner; run the script with a k6 build that includes the extension)`;
  if (id === 'k6' || id.startsWith('k6/'))
    return `unknown module: ${id} (bench's runner supports ${Object.keys(K6_MODULES)
      .filter((m) => !m.startsWith('jslib:'))
      .join(', ')})`;
  return undefined;
}

/**
 * k6 modules whose only export is their default object (k6/http, k6/execution, ...): in k6 their named imports read that
 * object's members live, so `http.get = wrapped` (jslib's tracing instrumentation) also changes `import { get }`.
 * k6's other modules export named bindings of their own, which such an assignment does not change.
 */
export const LIVE_MODULES: ReadonlySet<string> = new Set(['k6/http', 'k6/execution', 'k6/html', 'k6/ws']);

/** The key of a live module object's method that registers a listener for assignments to its members. */
export const LIVE_KEY = 'bench.k6.live';

/** The JS source of the virtual module that re-exports a built-in from the realm's module table. */
export function virtualModuleSource(id: string): string {
  const names = K6_MODULES[id] ?? [];
  const lines = [
    `const m = globalThis[Symbol.for('bench.k6.require')](${JSON.stringify(id)});`,
    'export default m;',
  ];
  if (!LIVE_MODULES.has(id)) {
    for (const n of names) lines.push(`export const ${n} = m.${n};`);
    return lines.join('\n');
  }
  for (const n of names) lines.push(`export let ${n} = m.${n};`);
  const cases = names.map((n) => `case ${JSON.stringify(n)}: ${n} = v; break;`).join(' ');
  lines.push(`m[Symbol.for(${JSON.stringify(LIVE_KEY)})]((k, v) => { switch (k) { ${cases} } });`);
  return lines.join('\n');
}

/** The CommonJS module a script's `require(id)` of a built-in gets: the realm's module object itself. */
export function requiredModuleSource(id: string): string {
  return `module.exports = globalThis[Symbol.for('bench.k6.require')](${JSON.stringify(id)});`;
}
