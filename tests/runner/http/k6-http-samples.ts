// The samples k6 emits for one HTTP request, in k6's order. Written out here, not taken from
// runner/http/http-samples.ts, so that the tests check the runner's order rather than repeat it.
export const K6_HTTP_SAMPLE_ORDER: readonly string[] = [
  'http_reqs',
  'http_req_duration',
  'http_req_blocked',
  'http_req_connecting',
  'http_req_tls_handshaking',
  'http_req_sending',
  'http_req_waiting',
  'http_req_receiving',
  'http_req_failed',
];
