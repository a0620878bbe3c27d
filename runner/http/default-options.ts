// k6/http's module options before a script sets any: k6's documented defaults, with bench's own User-Agent.
import type { HttpModuleOptions } from '../modules/module-host';
import { DEFAULT_SYSTEM_TAGS } from '../options/option-keys';
import { BENCH_VERSION, TARGET_K6_VERSION } from '../version';

/** k6/http's options before the script's own: k6's defaults, with bench's User-Agent. */
export function defaultHttpOptions(): HttpModuleOptions {
  return {
    // Our own product token: bench is not Grafana k6, and servers that log User-Agents should see which tool sent the load.
    userAgent: `bench/${BENCH_VERSION} (k6-compatible; targets k6 ${TARGET_K6_VERSION})`,
    maxRedirects: 10,
    batch: 20,
    batchPerHost: 6,
    discardResponseBodies: false,
    throw: false,
    insecureSkipTLSVerify: false,
    tls: {},
    noConnectionReuse: false,
    noVUConnectionReuse: false,
    noCookiesReset: false,
    systemTags: [...DEFAULT_SYSTEM_TAGS],
    httpDebug: '',
  };
}
