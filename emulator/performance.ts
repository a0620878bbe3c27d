// The one clock for server timings (performance.server_total_ms, query_execution_ms): monotonic, rounded to
// hundredths of a millisecond like the service's fractional figures.
export function elapsedMs(since: number): number {
  return Math.round((performance.now() - since) * 100) / 100;
}
