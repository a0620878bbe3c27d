// When setup() sends a failed write again, and after how long: both experiments' seeding and ingest retry
// network failures, 429 and 5xx with exponential backoff (or the server's retry-after-ms), up to a fixed number of
// attempts. Pure.

/** Attempts per write request before setup() gives up. */
export const MAX_WRITE_ATTEMPTS = 20;

/** The longest single wait, ms; with MAX_WRITE_ATTEMPTS it bounds one write's retries to about two minutes. */
const MAX_DELAY_MS = 8000;

/** Status 0 (no response), 429 (backpressure) and 5xx are worth another attempt; other 4xx are the request's fault. */
export function isRetryable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/** Wait before attempt `attempt + 1`: the server's retry-after-ms, else 250 ms x 2^attempt; at most 8 s. */
export function retryDelayMs(res: { retryAfterMs?: number }, attempt: number): number {
  return Math.min(MAX_DELAY_MS, res.retryAfterMs ?? 250 * 2 ** attempt);
}
