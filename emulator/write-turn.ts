// What a large write does between two slices of its work (decoding, appending vectors): let other requests in, and
// let the searches already running finish first (bounded), so a big write does not double the latency of the
// queries beside it on a 2-core machine (see vector/search-priority.ts).
import { searchesIdle } from './vector/index';

export async function writeTurn(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await searchesIdle();
}
