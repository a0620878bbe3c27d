// Starts an in-process emulator on 127.0.0.1:0 for HTTP tests and wraps fetch for JSON calls; for --data-dir tests,
// also the throwaway directories they start it on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { DEFAULT_CONFIG, type EmulatorConfig } from '../../emulator/config';
import type { VectorColumnFactory } from '../../emulator/namespace/namespace';
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

export interface DataDirs {
  /** A new empty directory, removed after the test. */
  tempDir(): string;
  /** startTestEmulator, closed after the test unless the test closed it itself. */
  start(overrides?: Partial<EmulatorConfig>): Promise<TestEmulator>;
}

/**
 * Data directories for the calling file's tests, named `prefix`...: after every test, the emulators still open are
 * closed first (so none writes into a directory being removed), then the directories removed.
 */
export function useDataDirs(prefix: string): DataDirs {
  const dirs: string[] = [];
  const open = new Set<TestEmulator>();
  afterEach(async () => {
    try {
      for (const emulator of [...open]) await emulator.close();
    } finally {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
    }
  });
  return {
    tempDir() {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async start(overrides = {}) {
      const emulator = await startTestEmulator(overrides);
      open.add(emulator);
      const close = emulator.close;
      emulator.close = async () => {
        open.delete(emulator);
        await close();
      };
      return emulator;
    },
  };
}
