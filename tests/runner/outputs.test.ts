// Output files that cannot be written (issue 14): every path known before the run is checked before the script
// loads (exit 255, as k6 exits when it cannot open an output file), and a write that fails late (handleSummary's
// paths, a full disk under --out) loses nothing else and leaves the exit code as it was, as in k6.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bench, fileFixtures, fixture } from './harness';

const files = fileFixtures();
const { tmp } = files;
const FIXTURE = fixture('outputs-late-and-early.js');
const hits = () => files.server.requests.filter((r) => r.url === '/hit').length;

describe('output paths known before the run', () => {
  it.each([
    [['--out', 'json=MISSING/x.json'], '--out json: cannot write "MISSING/x.json"'],
    [['--out', 'csv=MISSING/x.csv'], '--out csv: cannot write "MISSING/x.csv"'],
    [['--out', 'json=MISSING/x.json.gz'], '--out json: cannot write "MISSING/x.json.gz"'],
    [['--summary-export', 'MISSING/s.json'], '--summary-export: cannot write "MISSING/s.json"'],
    [['--log-output', 'file=MISSING/log.txt'], '--log-output: cannot write "MISSING/log.txt"'],
    [['--console-output', 'MISSING/console.txt'], '--console-output: cannot write "MISSING/console.txt"'],
  ])(
    '%j in a directory that does not exist: exit 255 before any request, naming the path and the fix',
    async (flags, text) => {
      const missing = join(tmp.dir, 'missing');
      const before = hits();
      const r = await bench([
        'run',
        '-q',
        ...flags.map((f) => f.replace('MISSING', missing)),
        '-e',
        `BASE=${files.server.url}`,
        FIXTURE,
      ]);
      expect(r.code, r.stderr).toBe(255);
      expect(r.stderr).toContain(text.replace('MISSING', missing));
      expect(r.stderr).toContain(
        `directory "${missing}" does not exist (create it first, or choose another path)`,
      );
      expect(r.stderr).not.toMatch(/internal error|Unhandled|at .*\.js:\d+/);
      expect(hits()).toBe(before);
    },
  );

  it('lists every unwritable path at once; a directory given as a file is refused too', async () => {
    const r = await bench([
      'run',
      '-q',
      '--out',
      `json=${join(tmp.dir, 'nope', 'a.json')}`,
      '--summary-export',
      tmp.dir,
      FIXTURE,
    ]);
    expect(r.code).toBe(255);
    expect(r.stderr).toContain('bench: outputs cannot be written:');
    expect(r.stderr).toContain(`--out json: cannot write "${join(tmp.dir, 'nope', 'a.json')}"`);
    expect(r.stderr).toContain(`--summary-export: cannot write "${tmp.dir}": "${tmp.dir}" is a directory`);
  });

  it('an unknown output type or a bad csv option exits 255 as in k6', async () => {
    const xml = await bench(['run', '-q', '--out', 'xml=a.xml', FIXTURE]);
    expect(xml.code).toBe(255);
    expect(xml.stderr).toContain("invalid output type 'xml', available types are: json, csv, web-dashboard");
    const csv = await bench(['run', '-q', '--out', 'csv=fileName=a.csv,colour=red', FIXTURE]);
    expect(csv.code).toBe(255);
    expect(csv.stderr).toContain(`could not create the 'csv' output: unknown csv output option "colour"`);
  });

  it('--summary-export is not checked when --summary-mode disabled skips it (as k6 skips it)', async () => {
    const r = await bench([
      'run',
      '-q',
      '--summary-mode',
      'disabled',
      '--summary-export',
      join(tmp.dir, 'nope', 's.json'),
      FIXTURE,
    ]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('writes that fail late', () => {
  it("handleSummary paths in a missing directory: the console table and every other file are kept, k6's error, exit 0", async () => {
    const missing = join(tmp.dir, 'no-results');
    const exported = join(tmp.dir, 'export.json');
    const system = join(tmp.dir, 'system-tmp');
    mkdirSync(system);
    const r = await bench(
      [
        'run',
        '-q',
        '--summary-export',
        exported,
        '-e',
        `RESULTS=${missing}`,
        '-e',
        `GOOD=${tmp.dir}`,
        FIXTURE,
      ],
      { TMPDIR: system },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('custom table: 2 iterations\n');
    expect(JSON.parse(readFileSync(join(tmp.dir, 'kept.json'), 'utf8'))).toEqual({ kept: true });
    expect(JSON.parse(readFileSync(exported, 'utf8')).metrics.iterations.count).toBe(2);
    expect(existsSync(missing)).toBe(false);
    expect(r.stderr).toContain('level=error msg="failed to handle the end-of-test summary"');
    expect(r.stderr).toContain('Could not save some summary information:');
    // Beyond k6: what could not be written where asked is kept under the system's temporary directory, and named.
    const [keep] = readdirSync(system);
    expect(keep).toMatch(/^bench-unsaved-/);
    expect(readdirSync(join(system, keep)).sort()).toEqual(['report.json', 'report.md']);
    for (const file of ['report.md', 'report.json']) {
      const path = join(missing, file);
      expect(r.stderr).toContain(`could not open '${path}': open ${path}: no such file or directory`);
      expect(r.stderr).toContain(`kept in ${join(system, keep, file)}`);
    }
    expect(r.stderr).toContain(`directory \\"${missing}\\" does not exist`);
    expect(r.stderr).not.toMatch(/internal error/);
  });

  it('--out json and csv to a full disk (/dev/full): one error each, the run and its summary go on, exit 0', async () => {
    const exported = join(tmp.dir, 'export-full.json');
    const r = await bench([
      'run',
      '-q',
      '--out',
      'json=/dev/full',
      '--out',
      'csv=/dev/full',
      '--summary-export',
      exported,
      FIXTURE,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/TOTAL RESULTS/);
    expect(JSON.parse(readFileSync(exported, 'utf8')).metrics.iterations.count).toBe(2);
    for (const type of ['json', 'csv']) {
      const lines = r.stderr.split('\n').filter((l) => l.includes(`output ${type}: write /dev/full`));
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/level=error .*no space left on device; the rest of its samples are dropped/);
    }
  });
});
