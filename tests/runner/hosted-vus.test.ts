// `bench run --vu-threads N`: VUs sharing host threads, through the real CLI against a loopback server.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bench, fileFixtures, fixture, points, readNdjson } from './harness';

const files = fileFixtures();
const tmp = files.tmp;

/** `bench run -q --vu-threads <threads>` on a fixture with TARGET set, writing NDJSON to `out` when given. */
function runHosted(name: string, options: { out?: string; threads?: string } = {}) {
  const json = options.out ? ['--out', `json=${options.out}`] : [];
  return bench([
    'run',
    '-q',
    '--vu-threads',
    options.threads ?? '1',
    ...json,
    '-e',
    `TARGET=${files.server.url}`,
    fixture(name),
  ]);
}

const total = (lines: ReturnType<typeof readNdjson>, metric: string) =>
  points(lines, metric).reduce((sum, l) => sum + (l.data?.value ?? 0), 0);

describe('--vu-threads', () => {
  it('keeps each VU isolated on a shared thread: own module state, globals, __VU/__ITER and tags', async () => {
    const out = join(tmp.dir, 'iso.ndjson');
    const before = files.server.requests.length;
    const r = await runHosted('hosted-vus-isolation.js', { out });
    expect(r.code, r.stderr).toBe(0);
    const urls = files.server.requests.slice(before).map((q) => q.url);
    expect(urls.filter((u) => u === '/setup')).toHaveLength(1);
    const vuUrls = urls.filter((u) => u !== '/setup').sort();
    expect(vuUrls).toEqual(
      [1, 2, 3].flatMap((vu) => [0, 1, 2, 3].map((iter) => `/vu${vu}/iter${iter}`)).sort(),
    );
    const lines = readNdjson(out);
    expect(total(lines, 'iterations')).toBe(12);
    expect(total(lines, 'fixture_module_count')).toBe(12);
    expect(total(lines, 'fixture_global_count')).toBe(12);
    expect(points(lines, 'checks').every((l) => l.data?.value === 1)).toBe(true);
    expect(points(lines, 'checks')).toHaveLength(24);
    const reqs = points(lines, 'http_reqs').filter((l) => l.data?.tags?.scenario === 'iso');
    expect(reqs).toHaveLength(12);
    expect(reqs.every((l) => l.data?.tags?.kind === 'hosted' && l.data?.tags?.status === '200')).toBe(true);
  });

  it('stops with exit 107 and names the call when a hosted VU makes a blocking call that cannot become an await', async () => {
    const r = await runHosted('hosted-vus-sync-call-exit-107.js');
    expect(r.code).toBe(107);
    expect(r.stderr).toMatch(
      /http\.get\(\) blocks its thread, and with --vu-threads VUs share threads \(the runner can run blocking calls as awaits, but not in this script: a function that makes blocking calls is passed or kept as a value at bundle line \d+:\d+\)/,
    );
    expect(r.ms).toBeLessThan(30_000);
  });

  it('hosts a sync script by default with its blocking calls run as awaits, and k6 sees the same results', async () => {
    const out = join(tmp.dir, 'awaits.ndjson');
    const before = files.server.requests.length;
    const r = await bench([
      'run',
      '-q',
      '-v',
      '--out',
      `json=${out}`,
      '-e',
      `TARGET=${files.server.url}`,
      fixture('hosted-vus-sync-awaits.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("VUs share 1 thread; the script's blocking calls run as awaits");
    const urls = files.server.requests.slice(before).map((q) => q.url);
    expect(urls.filter((u) => u.startsWith('/ping/')).sort()).toEqual(
      [1, 2, 3].flatMap((vu) => [0, 1].map((iter) => `/ping/vu${vu}-iter${iter}`)).sort(),
    );
    const lines = readNdjson(out);
    expect(total(lines, 'iterations')).toBe(6);
    expect(total(lines, 'fixture_iterations_seen')).toBe(6);
    expect(points(lines, 'http_reqs')).toHaveLength(18);
    const checks = points(lines, 'checks');
    expect(checks).toHaveLength(18);
    expect(checks.every((l) => l.data?.value === 1)).toBe(true);
    expect(checks.filter((l) => l.data?.tags?.group === '::pair')).toHaveLength(12);
    const groups = points(lines, 'group_duration');
    expect(groups.map((l) => l.data?.tags?.group)).toEqual(Array(6).fill('::pair'));
    expect(points(lines, 'iteration_duration').every((l) => (l.data?.value ?? 0) >= 120)).toBe(true);
    // The frames a thread-per-VU run shows, at the script's own lines (no `async`, no `[as fn]`).
    expect(r.stderr).toMatch(
      /Error: sync boom\\n +at thrower \(.*hosted-vus-sync-awaits\.js:47:9\)\\n +at Object\.hosted_vus_sync_awaits_default \(.*hosted-vus-sync-awaits\.js:43:35\)" source=stacktrace/,
    );
  });

  it('takes every constant-arrival-rate start with hosted VUs and records their start lag and the host thread lag', async () => {
    const out = join(tmp.dir, 'arrival.ndjson');
    const r = await runHosted('hosted-vus-arrival-rate.js', { out });
    expect(r.code, r.stderr).toBe(0);
    const lines = readNdjson(out);
    // 40/s for 2 s: 80 starts, each either run or dropped (never lost or repeated).
    expect(total(lines, 'iterations') + total(lines, 'dropped_iterations')).toBe(80);
    expect(points(lines, 'bench_iteration_start_lag')).toHaveLength(total(lines, 'iterations'));
    // The host thread times every request of its VUs: its event-loop lag is reported once a second.
    expect(
      points(lines, 'bench_event_loop_lag').filter((l) => l.data?.tags?.thread === 'vu-host').length,
    ).toBeGreaterThanOrEqual(1);
  });

  it('sends the bytes of each large body: a string re-encoded only when it is another string, an ArrayBuffer as it is now', async () => {
    const before = files.server.requests.length;
    const r = await runHosted('hosted-vus-large-bodies.js');
    expect(r.code, r.stderr).toBe(0);
    const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
    const got = files.server.requests.slice(before).map((q) => [q.url, q.bodyBytes, q.bodySha1]);
    const size = 256 * 1024;
    expect(got).toEqual([
      ['/a1', size, sha1('a'.repeat(size))],
      ['/a2', size, sha1('a'.repeat(size))],
      ['/b', size, sha1('b'.repeat(size))],
      ['/a3', size, sha1('a'.repeat(size))],
      ['/c1', 2 * (1 << 20) + 4, sha1(`${'é'.repeat(1 << 20)}\u{1F600}`)],
      ['/c2', 2 * (1 << 20) + 4, sha1(`${'é'.repeat(1 << 20)}\u{1F600}`)],
      ['/bin1', size, createHash('sha1').update(Buffer.alloc(size, 7)).digest('hex')],
      [
        '/bin2',
        size,
        createHash('sha1')
          .update(Buffer.concat([Buffer.from([8]), Buffer.alloc(size - 1, 7)]))
          .digest('hex'),
      ],
    ]);
  });

  it("sends a script's ArrayBuffer as bytes and logs a script's Error with its frames", async () => {
    const before = files.server.requests.length;
    const r = await runHosted('hosted-vus-script-values.js');
    expect(r.code, r.stderr).toBe(0);
    const [sent] = files.server.requests.slice(before);
    expect([sent.url, sent.bodyBytes, sent.bodySha1]).toEqual([
      '/buffer',
      3,
      createHash('sha1')
        .update(Buffer.from([1, 2, 3]))
        .digest('hex'),
    ]);
    expect(r.stderr).toMatch(/Error: hosted boom\\n +at thrower \(.*hosted-vus-script-values\.js:8/);
  });

  it('says in the header that VUs share threads', async () => {
    const r = await bench([
      'run',
      '--summary-mode',
      'disabled',
      '--vu-threads',
      '2',
      '-e',
      `TARGET=${files.server.url}`,
      fixture('hosted-vus-large-bodies.js'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[3]).toBe('     execution: local (--vu-threads 2: VUs share 2 threads)');
  });

  it('rejects a --vu-threads value that is not a whole number before running anything', async () => {
    const before = files.server.requests.length;
    const r = await runHosted('hosted-vus-arrival-rate.js', { threads: 'two' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--vu-threads expects a whole number, got "two"/);
    expect(files.server.requests.length).toBe(before);
  });
});
