// A temporary directory for one test file, removed after its tests: a suite leaves nothing in the OS temp dir.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * Creates `<tmpdir>/<prefix>XXXXXX` now and removes it, with what the tests wrote into it, after the file's (or the
 * describe block's) tests. Call it at file or describe level: a hook registered inside a test never runs.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
