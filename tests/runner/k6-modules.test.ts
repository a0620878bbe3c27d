// k6 modules beyond k6/http, run through the CLI as users run them: each fixture checks values with check(), so a
// run passes when every check passed (checks_failed 0) and the exit code is k6's.
import { describe, expect, it } from 'vitest';
import { bench, fixture, startServer } from './harness';

/** Runs a fixture for one iteration of one VU. */
function runChecks(name: string, args: string[] = []) {
  return bench(['run', '-q', '--vus', '1', '--iterations', '1', ...args, fixture(name)]);
}

describe('k6 modules run by bench', () => {
  it("WebCrypto accepts the script's own ArrayBuffers on hosted VUs and on VU threads", async () => {
    for (const threads of [[], ['--vu-threads', '0']]) {
      const r = await runChecks('webcrypto-script-buffers.js', threads);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/level=error/);
      expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
    }
  });

  it('a thrown value that is not an Error keeps the file:line of its throw', async () => {
    for (const threads of [[], ['--vu-threads', '0']]) {
      const r = await bench(['run', '-q', '--iterations', '2', ...threads, fixture('thrown-values.js')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /level=error msg="plain string\\n {4}at inner \(\S*thrown-values\.js:8:3\)\\n {4}at \S+ \(\S*thrown-values\.js:3:/,
      );
      expect(r.stderr).toMatch(
        /level=error msg="\[object Object\]\\n {4}at \S+ \(\S*thrown-values\.js:4:3\)/,
      );
    }
  });

  it("assigning to k6/http's exports reaches its default and named imports, as jslib's instrumentation needs", async () => {
    for (const threads of [[], ['--vu-threads', '0']]) {
      const r = await runChecks('module-exports/script.js', threads);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
    }
  });

  it('k6/html: parseHTML and res.html() read a page as k6 documents', async () => {
    const server = await startServer(() => ({
      status: 200,
      body: '<html lang="en"><head><title>Fixture page</title></head><body><ul><li>a</li><li>b</li></ul></body></html>',
    }));
    try {
      for (const threads of [[], ['--vu-threads', '0']]) {
        const r = await runChecks('html-module.js', [...threads, '-e', `TARGET=${server.url}`]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 4 out of 4/);
      }
    } finally {
      await server.close();
    }
  });

  it('k6/experimental/fs and k6/experimental/csv read files opened in the init context', async () => {
    const r = await runChecks('fs-and-csv.js');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 5 out of 5/);
  });

  it('k6/secrets reads --secret-source file and mock sources and redacts their values from logs', async () => {
    const r = await runChecks('secrets.js', [
      '--secret-source',
      `file=name=file,default,${fixture('data/file.secret')}`,
      '--secret-source',
      'mock=name=another,cool=not cool',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 3 out of 3/);
    expect(r.stderr).toContain('the secret is ***SECRET_REDACTED***');
    expect(r.stderr).not.toMatch(/the secret is some/);
  });

  it('k6/experimental/streams: ReadableStream and WritableStream', async () => {
    for (const threads of [[], ['--vu-threads', '0']]) {
      const r = await runChecks('streams.js', threads);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
    }
  });

  it('import.meta.resolve() gives a file: URL that open() reads', async () => {
    for (const threads of [[], ['--vu-threads', '0']]) {
      const r = await runChecks('import-meta-resolve.js', threads);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/checks_succeeded\.*: 100\.00% 2 out of 2/);
    }
  });
});
