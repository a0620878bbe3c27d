// Warms a host thread's request path above the HTTP layer before its VUs are ready: k6/http as a hosted VU runs it
// (params, URL and headers, the request flow, the response, its samples and their encoding). runner/http/warm-up.ts
// warms undici and LocalIo below it; the code above them was still cold when a test started, and the first moments of
// a 2000/s test kept the host thread far busier than later on, dropping starts (docs/runner-measurements.md §2.3).
// It runs on a VU of its own: its own vm context, module instance, connection pool and sample encoder, whose messages
// and batches go nowhere, so nothing of it reaches the test; its server is on this thread, on 127.0.0.1 only.
import { newInt32Block, SIGNAL_WORDS } from '../control-block';
import { withWarmUpServer } from '../http/warm-up';
import { SampleBatchEncoder } from '../metrics/sample-batch';
import { createHttpModule } from '../modules/http';
import { newHostedContext } from './realm';
import { VuRuntime } from './runtime';
import type { RealmData } from './wire';

/** Lanes at once and requests per lane (960 in all), within BUDGET_MS. */
export const LANES = 8;
export const LANE_REQUESTS = 120;
const BUDGET_MS = 500;

interface AsyncHttp {
  asyncRequest(method: string, url: string): Promise<unknown>;
}

/** What one warm-up did (for tests). */
export interface RequestPathWarmUp {
  requests: number;
  /** Batches its encoder made (they are dropped). */
  batches: number;
  /** Connections its VU had not closed itself when it ended (the server cut them). */
  cut: number;
}

/**
 * Runs the warm-up with the options of `like` (a VU of this thread: the same HTTP options, tags and system tags, so
 * the code the test takes is the code warmed). A request that fails ends it early, quietly.
 */
export async function warmRequestPath(like: RealmData): Promise<RequestPathWarmUp> {
  const stats: RequestPathWarmUp = { requests: 0, batches: 0, cut: 0 };
  const rt = new VuRuntime(
    // noVUConnectionReuse: its iteration's end (below) closes its connections, from its side.
    {
      ...like,
      vuId: 0,
      signal: newInt32Block(SIGNAL_WORDS),
      httpOptions: { ...like.httpOptions, noVUConnectionReuse: true },
    },
    {
      post: () => {},
      global: newHostedContext(0).global,
      hosted: true,
      encoder: new SampleBatchEncoder(() => {
        stats.batches++;
      }),
    },
  );
  rt.initContext = false;
  const http = createHttpModule(rt) as unknown as AsyncHttp;
  const seen = await withWarmUpServer(async (origin) => {
    const until = performance.now() + BUDGET_MS;
    const lane = async () => {
      for (let i = 0; i < LANE_REQUESTS && performance.now() < until; i++) {
        await http.asyncRequest('GET', `${origin}/`);
        stats.requests++;
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane)).catch(() => {});
    rt.iterationEnded();
  });
  stats.cut = seen.cut;
  rt.encoder.flush();
  return stats;
}

let warming: Promise<unknown> | undefined;

/** This thread's warm-up, started once (by its first VU); resolves when it is over, never rejects. */
export function requestPathWarm(like: RealmData): Promise<unknown> {
  warming ??= warmRequestPath(like).catch(() => {});
  return warming;
}
