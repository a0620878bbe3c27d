// The seam between a VU's runtime (runner core: vu.worker.ts, lifecycle, metrics) and the k6 modules that live in
// separate files (k6/http in runner/modules/http.ts and runner/http/). The core creates one ModuleHost per VU realm
// (VU workers, and the transient realms for init #0, setup, teardown and handleSummary) and hands it to the module
// factories. Owned by the runner core; change it only together with its users.
// Realm notes for module authors: the realm's global setTimeout/setInterval are k6/timers (they keep the current
// iteration open), so module-internal timers must come from `node:timers`; signal words past SIGNAL_INTERRUPT are
// the core's (runner/control-block.ts).
import type { MessagePort } from 'node:worker_threads';
import type { TlsClientOptions } from '../http/tls-options';
import type { SampleInput } from '../metrics/sample';

/** Consolidated options the HTTP module reads (k6 names; defaults already applied by the core). */
export interface HttpModuleOptions {
  userAgent: string;
  maxRedirects: number;
  batch: number;
  batchPerHost: number;
  discardResponseBodies: boolean;
  throw: boolean;
  insecureSkipTLSVerify: boolean;
  /** `tlsVersion` and `tlsCipherSuites` as Node's TLS client options (runner/http/tls-options.ts). */
  tls: TlsClientOptions;
  noConnectionReuse: boolean;
  noVUConnectionReuse: boolean;
  noCookiesReset: boolean;
  /** Enabled system tags (k6 `systemTags`); a disabled one is simply not added to samples. */
  systemTags: readonly string[];
  /** `--http-debug` / `--http-debug=full`. */
  httpDebug: '' | 'headers' | 'full';
}

/** A call that would block a thread other VUs share (`--vu-threads`). */
export class HostedBlockingError extends Error {
  override name = 'HostedBlockingError';
  /** @param refusal why the runner could not make the script's blocking calls awaits (runner/script/hosting.ts) */
  constructor(call: string, refusal?: string) {
    super(
      `${call} blocks its thread, and with --vu-threads VUs share threads${refusal ? ` (the runner can run blocking calls as awaits, but not in this script: ${refusal})` : ''}: use the async forms (await http.asyncRequest(...), await new Promise((r) => setTimeout(r, ms)) for sleep), or run without --vu-threads`,
    );
  }
}

/** Indexes into ModuleHost.signal. */
export const SIGNAL_WAKE = 0;
export const SIGNAL_INTERRUPT = 1;
/** What signal[SIGNAL_INTERRUPT] holds for setup(): why it is interrupted (any non-zero value interrupts a VU). */
export const INTERRUPT_STOP = 1;
export const INTERRUPT_SETUP_TIMEOUT = 2;

export interface ModuleHost {
  /** 0 in init #0, setup, teardown and handleSummary realms; 1..N in VU realms. */
  readonly vuId: number;
  /** True while the module's top level (init code) is being evaluated: requests and metric adds must throw. */
  inInitContext(): boolean;
  readonly httpOptions: HttpModuleOptions;
  /**
   * The VU's current tag set: run tags < scenario tags < scenario/group system tags < exec.vu.metrics.tags. Frozen and
   * shared until it changes (cheaper to encode: pass it as a sample's tags as it is; copy it to add tags).
   */
  tags(): Readonly<Record<string, string>>;
  /** The VU's current metadata (vu/iter when enabled, exec.vu.metrics.metadata); read-only. */
  metadata(): Record<string, string>;
  /** Emits samples (HTTP samples in k6's order: http_reqs, http_req_duration, ..., http_req_failed). */
  emit(samples: SampleInput[]): void;
  /** Socket-level bytes for data_sent / data_received, emitted by the core at iteration end. */
  countData(sentBytes: number, receivedBytes: number): void;
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, string>): void;
  /**
   * Blocking-wait word for synchronous calls. A sync call posts its request, then Atomics.wait()s on
   * signal[SIGNAL_WAKE] until the peer stores a non-zero value and notifies; the core stores 1 in
   * signal[SIGNAL_INTERRUPT] and notifies SIGNAL_WAKE when the iteration must stop.
   */
  readonly signal: Int32Array;
  /** Throws the core's interruption sentinel if the current iteration was interrupted (never catch it). */
  throwIfInterrupted(): void;
  /** True when the VU shares its thread with other VUs (`--vu-threads`): blocking calls must throw HostedBlockingError. */
  readonly hosted: boolean;
  /**
   * True for hosted VUs whose script's blocking calls were compiled into awaits (runner/script/hosting.ts): the sync
   * calls (get/post/.../request, batch, sleep) return promises of what they would have returned instead of throwing.
   */
  readonly awaitsBlocking: boolean;
  /** HostedBlockingError for `call`, with the reason the script's calls could not become awaits. */
  blockingError(call: string): HostedBlockingError;
  /** Channel to this VU's HTTP I/O worker (runner/http/io-pool.ts); undefined in realms that cannot send requests. */
  readonly httpPort: MessagePort | undefined;
  /** Keeps the iteration alive until the promise settles (async requests, timers): k6 ends an iteration only when
   * its event loop is empty. */
  track<T>(promise: Promise<T>): Promise<T>;
  onIterationStart(callback: () => void): void;
  onIterationEnd(callback: () => void): void;
}
