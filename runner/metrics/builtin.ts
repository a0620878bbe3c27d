// k6's built-in metrics with their types and value kinds, in k6's definition order.
import type { MetricType, ValueType } from './sinks';

export interface MetricDefinition {
  name: string;
  type: MetricType;
  contains: ValueType;
}

export const BUILTIN_METRICS: readonly MetricDefinition[] = [
  { name: 'vus', type: 'gauge', contains: 'default' },
  { name: 'vus_max', type: 'gauge', contains: 'default' },
  { name: 'iterations', type: 'counter', contains: 'default' },
  { name: 'iteration_duration', type: 'trend', contains: 'time' },
  { name: 'dropped_iterations', type: 'counter', contains: 'default' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'data_received', type: 'counter', contains: 'data' },
  { name: 'checks', type: 'rate', contains: 'default' },
  { name: 'group_duration', type: 'trend', contains: 'time' },
  { name: 'http_reqs', type: 'counter', contains: 'default' },
  { name: 'http_req_duration', type: 'trend', contains: 'time' },
  { name: 'http_req_blocked', type: 'trend', contains: 'time' },
  { name: 'http_req_connecting', type: 'trend', contains: 'time' },
  { name: 'http_req_tls_handshaking', type: 'trend', contains: 'time' },
  { name: 'http_req_sending', type: 'trend', contains: 'time' },
  { name: 'http_req_waiting', type: 'trend', contains: 'time' },
  { name: 'http_req_receiving', type: 'trend', contains: 'time' },
  { name: 'http_req_failed', type: 'rate', contains: 'default' },
  // k6/ws and k6/websockets.
  { name: 'ws_connecting', type: 'trend', contains: 'time' },
  { name: 'ws_msgs_received', type: 'counter', contains: 'default' },
  { name: 'ws_msgs_sent', type: 'counter', contains: 'default' },
  { name: 'ws_ping', type: 'trend', contains: 'time' },
  { name: 'ws_session_duration', type: 'trend', contains: 'time' },
  { name: 'ws_sessions', type: 'counter', contains: 'default' },
  // k6/net/grpc.
  { name: 'grpc_req_duration', type: 'trend', contains: 'time' },
  { name: 'grpc_streams', type: 'counter', contains: 'default' },
  { name: 'grpc_streams_msgs_received', type: 'counter', contains: 'default' },
  { name: 'grpc_streams_msgs_sent', type: 'counter', contains: 'default' },
  // k6/browser.
  { name: 'browser_data_received', type: 'counter', contains: 'data' },
  { name: 'browser_data_sent', type: 'counter', contains: 'data' },
  { name: 'browser_http_req_duration', type: 'trend', contains: 'time' },
  { name: 'browser_http_req_failed', type: 'rate', contains: 'default' },
  { name: 'browser_web_vital_cls', type: 'trend', contains: 'default' },
  { name: 'browser_web_vital_fcp', type: 'trend', contains: 'time' },
  { name: 'browser_web_vital_lcp', type: 'trend', contains: 'time' },
  { name: 'browser_web_vital_ttfb', type: 'trend', contains: 'time' },
  // bench extensions (coordinated omission visibility): not known to Grafana k6.
  { name: 'bench_iteration_start_lag', type: 'trend', contains: 'time' },
  { name: 'bench_event_loop_lag', type: 'trend', contains: 'time' },
];

export const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTIN_METRICS.map((m) => m.name));

/** k6's metric name rule (custom metrics too): at least 2 characters. */
export const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{1,128}$/;
