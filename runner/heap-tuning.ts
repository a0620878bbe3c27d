// V8 heap settings for a load generator's process, applied before any VU thread starts (V8 reads them when an isolate
// is made, and each worker thread is one).
import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's memory reducer: it takes a slow test's rare wake-ups for an idle process and runs full garbage
 * collections to shrink the heap, which were about half of the runner's CPU at 10 requests/s (runner/README.md,
 * "Performance"). The heap is still bounded by the ordinary collector; it is only not shrunk while idle.
 */
export function tuneHeapForLoad(): void {
  setFlagsFromString('--no-memory-reducer');
}
