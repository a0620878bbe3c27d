// The Python SDK suite (tests/emulator/python: pytest against real `bench emulator` processes it starts itself)
// inside `make test`. It runs in .venv/, which `make venv` (a prerequisite of `make test`) builds from the pinned
// requirements; its output is shown when it fails.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { BENCH_JS } from './emulator-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = `${ROOT}.venv/bin/python`;
const SUITE = fileURLToPath(new URL('./python', import.meta.url));

it('the Python SDK suite passes against the emulator', async () => {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run \`make venv\` (make test makes it)`);
  const result = await new Promise<{ code: number; output: string }>((resolve) => {
    execFile(
      PYTHON,
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-s', SUITE],
      {
        cwd: SUITE,
        env: { ...process.env, BENCH_JS, BENCH_NODE: process.execPath, PYTHONDONTWRITEBYTECODE: '1' },
        timeout: 120_000,
        maxBuffer: 16 * 2 ** 20,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error.code as number | undefined) ?? 1) : 0, output: stdout + stderr }),
    );
  });
  expect(result.code, result.output).toBe(0);
  // Every test ran: none skipped, and the suite made every call the SDK offers.
  expect(result.output).toMatch(/^\d+ passed in /m);
  expect(result.output).not.toMatch(/skipped|xfail/);
  expect(result.output).toMatch(/SDK calls made: (\d+) of \1 offered/);
});
