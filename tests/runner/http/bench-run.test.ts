// k6/http inside the real runner: `node dist/bench.js run` (harness.ts's bench) on a fixture script, NDJSON samples
// checked line by line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../temp-dir';
import { bench } from '../harness';
import { K6_HTTP_SAMPLE_ORDER } from './k6-http-samples';
import { type LoopbackServer, startLoopbackServer } from './loopback-server';

const FIXTURE = fileURLToPath(new URL('./fixtures/http-samples.js', import.meta.url));

interface Point {
  metric: string;
  type: string;
  data: { time: string; value: number; tags: Record<string, string> };
}

let server: LoopbackServer;
const dir = tempDir('bench-http-');

beforeAll(async () => {
  server = await startLoopbackServer();
});

afterAll(async () => {
  await server?.close();
});

describe('k6/http in bench run', () => {
  it('emits nine samples per request, in k6 order, with one timestamp and k6 tags', async () => {
    const out = join(dir, 'out.json');
    const r = await bench(
      ['run', '-q', '--out', `json=${out}`, '-e', `BASE=${server.url}`, FIXTURE],
      {},
      60_000,
    );
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
