// The k6/http module for one VU realm: k6's named exports and default export (docs/k6-behaviour.md §4), backed by
// runner/http/vu-http.ts. Synchronous calls block only this VU's thread; asyncRequest returns a tracked promise.
import { CookieJar } from '../http/cookie-jar';
import { expectedStatuses } from '../http/expected-statuses';
import { file } from '../http/request-body';
import { urlTemplate } from '../http/request-url';
import { VuHttp } from '../http/vu-http';
import type { ModuleHost } from './module-host';

const CONSTANTS = {
  SSL_3_0: 'ssl3.0',
  TLS_1_0: 'tls1.0',
  TLS_1_1: 'tls1.1',
  TLS_1_2: 'tls1.2',
  TLS_1_3: 'tls1.3',
  OCSP_STATUS_GOOD: 'good',
  OCSP_STATUS_REVOKED: 'revoked',
  OCSP_STATUS_SERVER_FAILED: 'server_failed',
  OCSP_STATUS_UNKNOWN: 'unknown',
  OCSP_REASON_AA_COMPROMISE: 'aa_compromise',
  OCSP_REASON_AFFILIATION_CHANGED: 'affiliation_changed',
  OCSP_REASON_CA_COMPROMISE: 'ca_compromise',
  OCSP_REASON_CERTIFICATE_HOLD: 'certificate_hold',
  OCSP_REASON_CESSATION_OF_OPERATION: 'cessation_of_operation',
  OCSP_REASON_KEY_COMPROMISE: 'key_compromise',
  OCSP_REASON_PRIVILEGE_WITHDRAWN: 'privilege_withdrawn',
  OCSP_REASON_REMOVE_FROM_CRL: 'remove_from_crl',
  OCSP_REASON_SUPERSEDED: 'superseded',
  OCSP_REASON_UNSPECIFIED: 'unspecified',
} as const;

/**
 * Returns the module namespace: every k6/http named export, plus `default` holding the same members
 * (`import http from 'k6/http'` and `import { get } from 'k6/http'` both work).
 */
export function createHttpModule(host: ModuleHost): Record<string, unknown> {
  const vu = new VuHttp(host);
  // A hosted script whose blocking calls were made awaits gets each sync call's result as a promise.
  const request = host.awaitsBlocking
    ? (method: string, url: unknown, body: unknown, params: unknown) =>
        vu.asyncRequest(method, url, body, params)
    : (method: string, url: unknown, body: unknown, params: unknown) => vu.request(method, url, body, params);
  const bodyless =
    (method: string, name: string) =>
    (url: unknown, params?: unknown, ...extra: unknown[]) => {
      if (extra.length > 0) {
        host.log('warn', `http.${name}() takes (url, params): ${extra.length} extra argument(s) ignored`);
      }
      return request(method, url, null, params);
    };
  const withBody = (method: string) => (url: unknown, body?: unknown, params?: unknown) =>
    request(method, url, body, params);
  const members = {
    ...CONSTANTS,
    get: bodyless('GET', 'get'),
    head: bodyless('HEAD', 'head'),
    post: withBody('POST'),
    put: withBody('PUT'),
    patch: withBody('PATCH'),
    del: withBody('DELETE'),
    options: withBody('OPTIONS'),
    request(method: unknown, url: unknown, body?: unknown, params?: unknown) {
      return request(String(method), url, body, params);
    },
    asyncRequest(method: unknown, url: unknown, body?: unknown, params?: unknown) {
      return vu.asyncRequest(String(method), url, body, params);
    },
    batch(requests: unknown) {
      return host.awaitsBlocking ? vu.batchAwaited(requests) : vu.batch(requests);
    },
    url(strings: TemplateStringsArray, ...args: unknown[]) {
      return urlTemplate(strings, args);
    },
    file,
    cookieJar() {
      return vu.vuJar;
    },
    CookieJar,
    expectedStatuses(...args: unknown[]) {
      return expectedStatuses(args);
    },
    setResponseCallback(callback: unknown) {
      vu.setResponseCallback(callback);
    },
  };
  return { ...members, default: members };
}
