// The one error type handlers throw: an HTTP status plus a message, rendered as turbopuffer's error envelope.

/** turbopuffer's error body on every endpoint: `{"status":"error","error":"..."}`. */
export interface ErrorEnvelope {
  status: 'error';
  error: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra response headers, e.g. `retry-after-ms` on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function envelope(message: string): ErrorEnvelope {
  return { status: 'error', error: message };
}

/** 400 for a request that cannot be understood: the message names the field. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, message);
}

export function notFound(namespace: string): ApiError {
  return new ApiError(404, `namespace '${namespace}' was not found`);
}

/** 429 with the retry hint official SDKs honour before their own exponential backoff. */
export function tooManyRequests(message: string, retryAfterMs: number): ApiError {
  return new ApiError(429, message, { 'retry-after-ms': String(Math.max(1, Math.round(retryAfterMs))) });
}

/**
 * 503 with a retry hint: the emulator cannot take the request now but nothing is wrong with it (the data directory
 * full or read-only). The official SDKs retry every 5xx, honouring `retry-after-ms`.
 */
export function serviceUnavailable(message: string, retryAfterMs: number): ApiError {
  return new ApiError(503, message, { 'retry-after-ms': String(Math.max(1, Math.round(retryAfterMs))) });
}
