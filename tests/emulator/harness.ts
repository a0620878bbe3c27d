// Starts an in-process emulator on 127.0.0.1:0 for HTTP tests and wraps fetch for JSON calls.
import { DEFAULT_CONFIG, type EmulatorConfig } from '../../emulator/config';
import type { VectorColumnFactory } from '../../emulator/namespace';
import { type RunningEmulator, startEmulator } from '../../emulator/server';
import { exactFactory } from './exact-vector-column';

export interface JsonReply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response fields.
  body: any;
}

export interface TestEmulator extends RunningEmulator {
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<JsonReply>;
  post(path: string, body?: unknown): Promise<JsonReply>;
  get(path: string): Promise<JsonReply>;
  logs: string[];
}

export async function startTestEmulator(
  overrides: Partial<EmulatorConfig> = {},
  factory: VectorColumnFactory = exactFactory().factory,
): Promise<TestEmulator> {
  const logs: string[] = [];
  // Behaviour tests run without the latency model (no group commit, no object-storage waits): each write would
  // otherwise wait up to a second. The latency tests pass `latency` themselves.
  const emulator = await startEmulator(
    { ...DEFAULT_CONFIG, port: 0, latency: null, ...overrides },
    factory,
    (line) => logs.push(line),
  );
  const request = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(emulator.url + path, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body:
        body === undefined
          ? undefined
          : typeof body === 'string' || body instanceof Uint8Array
            ? body
            : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
  };
  return {
    ...emulator,
    logs,
    request,
    post: (path, body) => request('POST', path, body ?? {}),
    get: (path) => request('GET', path),
  };
}

/** Base64 of little-endian f32 vectors, as clients send them. */
export function b64(vector: readonly number[]): string {
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}
