// The one clock for server timings. turbopuffer's SDKs declare performance.server_total_ms and query_execution_ms
// as integers (Python `int`, Go `int64`), so those fields carry whole milliseconds, truncated the way Rust's
// Duration::as_millis truncates (the service is written in Rust; how it rounds is our inference). A sub-millisecond
// emulator answer would then read 0, so the emulator adds `emulator_server_total_ms` and
// `emulator_query_execution_ms`, the same clocks in hundredths of a millisecond: emulator-only fields that the SDKs
// keep as extras and bench's query samples prefer (lib/query-samples.ts).

/** Milliseconds since `since` (performance.now()), to hundredths. */
function elapsedMs(since: number): number {
  return Math.round((performance.now() - since) * 100) / 100;
}

/** A write's or query's total server time: the declared integer field and the emulator's precise one. */
export function serverTotal(startedAt: number): {
  server_total_ms: number;
  emulator_server_total_ms: number;
} {
  const precise = elapsedMs(startedAt);
  return { server_total_ms: Math.floor(precise), emulator_server_total_ms: precise };
}

/** A query's execution time (without waiting for query slots), integer and precise. */
export function queryExecution(executionStarted: number): {
  query_execution_ms: number;
  emulator_query_execution_ms: number;
} {
  const precise = elapsedMs(executionStarted);
  return { query_execution_ms: Math.floor(precise), emulator_query_execution_ms: precise };
}
