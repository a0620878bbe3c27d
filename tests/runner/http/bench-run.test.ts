// k6/http inside the real runner: `node dist/bench.js run` on a fixture script, NDJSON samples checked line by line.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { K6_HTTP_SAMPLE_ORDER } from './k6-http-samples';
import { type LoopbackServer, startLoopbackServer } from './loopback-server';

const BENCH = fileURLToPath(new URL('../../../dist/bench.js', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/http-samples.js', import.meta.url));

interface Point {
  metric: string;
  type: string;
  data: { time: string; value: number; tags: Record<string, string> };
}

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer();
});

afterAll(async () => {
  await server?.close();
});

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BENCH, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? ((err as { code?: number }).code ?? 1) : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

describe('k6/http in bench run', () => {
  it('emits nine samples per request, in k6 order, with one timestamp and k6 tags', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'bench-http-')), 'out.json');
    const r = await run(['run', '-q', '--out', `json=${out}`, '-e', `BASE=${server.url}`, FIXTURE]);
    expect(r.code).toBe(0);
    const points = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Point)
      .filter((p) => p.type === 'Point' && p.metric.startsWith('http_req'));
    expect(points).toHaveLength(6 * 9);
    for (let i = 0; i < 6; i++) {
      const group = points.slice(i * 9, i * 9 + 9);
      expect(group.map((p) => p.metric)).toEqual(K6_HTTP_SAMPLE_ORDER);
      expect(new Set(group.map((p) => p.data.time)).size).toBe(1);
      const t = group.map((p) => p.data.value);
      expect(t[1]).toBeCloseTo(t[5] + t[6] + t[7], 6);
    }
    const reqs = points.filter((p) => p.metric === 'http_reqs').map((p) => p.data.tags);
    expect(reqs[0]).toEqual({
      expected_response: 'true',
      group: '',
      kind: 'ok',
      method: 'GET',
      name: `${server.url}/status/200`,
      proto: 'HTTP/1.1',
      scenario: 'default',
      status: '200',
      url: `${server.url}/status/200`,
    });
    expect(reqs[1]).toMatchObject({ status: '404', error_code: '1404', expected_response: 'false' });
    const failed = points.filter((p) => p.metric === 'http_req_failed').map((p) => p.data.value);
    expect(failed).toEqual([0, 1, 0, 1, 0, 1]);
  });
});
