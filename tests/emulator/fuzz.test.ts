// Property-based fuzzing of a real emulator process (dist/bench.js emulator) with hostile write, query, schema,
// metadata, async-copy and _debug/recall bodies, operation tokens and listing parameters (fuzz/bodies.ts). Every
// answer: below 500, JSON, and for errors turbopuffer's envelope whose 400 message names the field; the process's peak RSS stays bounded; a normal query still answers exactly afterwards.
//
//   make test: 2,000 cases, fixed seed (about a minute)      make fuzz: 50,000 cases (FUZZ_RUNS), a fresh seed each run
//   FUZZ_SEED=<n> FUZZ_RUNS=<n> npx vitest run tests/emulator/fuzz.test.ts   reproduces a reported run
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { COPY_TARGETS, type FuzzCase, fuzzCase, NAMESPACES } from './fuzz/bodies';

const BENCH = fileURLToPath(new URL('../../dist/bench.js', import.meta.url));
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 14);
/** The emulator's peak resident memory may not pass this (it idles near 100 MB; bodies here are at most ~1 MB). */
const RSS_LIMIT_MB = Number(process.env.FUZZ_RSS_LIMIT_MB ?? 1024);
const CANARY_EVERY = 250;

let proc: ChildProcess;
let url = '';
let stderr = '';

beforeAll(async () => {
  // Without the latency model: the suite is about what the emulator accepts, and a second per write (the group
  // commit) would make its 2,000 cases take minutes.
  proc = spawn(process.execPath, [BENCH, 'emulator', '--port', '0', '--latency-model', 'none'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  proc.stdout?.on('data', (d) => {
    stdout += String(d);
  });
  proc.stderr?.on('data', (d) => {
    // Keep the tail only: a long run must not grow the test's own memory.
    stderr = (stderr + String(d)).slice(-20_000);
  });
  const deadline = Date.now() + 20_000;
  while (!stdout.includes('\n')) {
    if (proc.exitCode !== null) throw new Error(`emulator exited ${proc.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`emulator printed no URL within 20 s: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  url = stdout.trim();
});

afterAll(() => {
  if (proc && proc.exitCode === null) proc.kill('SIGKILL');
});

interface Answer {
  status: number;
  text: string;
}

/**
 * A failed case's message: the problem, the request, the emulator's reply and the tail of what it wrote to stderr (a
 * 5xx leaves its stack there), so that one report is enough to see why without a rerun.
 */
function failure(problem: string, request: string, answer: Answer): Error {
  return new Error(
    `${problem}\n--- request\n${request.slice(0, 2000)}\n--- reply ${answer.status}\n${answer.text.slice(0, 2000)}\n--- emulator stderr (tail)\n${stderr.slice(-4000) || '(empty)'}`,
  );
}

async function send(
  method: string,
  path: string,
  body: string | Uint8Array,
  headers: Record<string, string>,
) {
  const response = await fetch(url + path, {
    method,
    headers,
    body: method === 'GET' || method === 'DELETE' ? undefined : body,
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, text: await response.text() } satisfies Answer;
}

/** Message prefixes that name where the problem is: an API field, an attribute, a filter key, the body itself. */
const FIELD_NAMES = [
  // write
  'upsert_rows',
  'upsert_columns',
  'patch_rows',
  'patch_columns',
  'deletes',
  'delete_by_filter',
  'patch_by_filter',
  'upsert_condition',
  'patch_condition',
  'delete_condition',
  'distance_metric',
  'schema',
  'disable_backpressure',
  'return_affected_ids',
  'copy_from_namespace',
  'branch_from_namespace',
  'encryption',
  'sharding',
  'create_namespace',
  // query
  'rank_by',
  'top_k',
  'limit',
  'offset',
  'filters',
  'include_attributes',
  'exclude_attributes',
  'aggregate_by',
  'group_by',
  'consistency',
  'vector_encoding',
  'queries',
  'rerank_by',
  'pinning',
  'read_only',
  // a namespace in the path; _debug/recall, async copy, listing
  'namespace name',
  'num',
  'include_ground_truth',
  'source_namespace',
  'page_size',
  // anywhere
  'request body',
  'filter error in key `',
  'type mismatch for attribute ',
  'attribute ',
  'unknown_field',
];

/** The body's top-level keys, when it is a JSON object. */
function topLevelKeys(body: FuzzCase['body']): string[] {
  try {
    const value: unknown = JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];
  } catch {
    return [];
  }
}

function namesField(c: FuzzCase, message: string): boolean {
  if (FIELD_NAMES.some((name) => message.startsWith(name))) return true;
  // A field that is not the API's names itself ("colour: unknown field in a recall request"), quoted when it does
  // not read as a name (`"": unknown field`). Matched key by key, since a quoted key may itself hold ': '; bare only
  // when it has no space, colon or quote, so that an empty key's ": ..." does not pass for a name.
  return topLevelKeys(c.body).some(
    (k) =>
      message.startsWith(`${JSON.stringify(k)}: `) || (/^[^\s:"]+$/.test(k) && message.startsWith(`${k}: `)),
  );
}

/** Why an answer breaks the contract, or null when it keeps it. */
function violation(c: FuzzCase, answer: Answer): string | null {
  if (answer.status >= 500) return `status ${answer.status}`;
  let body: unknown;
  try {
    body = answer.text === '' ? null : JSON.parse(answer.text);
  } catch {
    return `status ${answer.status} with a body that is not JSON`;
  }
  if (answer.status < 400) return null;
  const envelope = body as { status?: unknown; error?: unknown } | null;
  if (envelope?.status !== 'error' || typeof envelope.error !== 'string' || envelope.error === '')
    return `status ${answer.status} without the error envelope`;
  // 404 (no such namespace) and 429 (backpressure) are about state, not about a field of this body.
  if (answer.status === 400 && c.kind !== 'garbage' && c.kind !== 'gzip' && !namesField(c, envelope.error))
    return `400 whose message names no field: ${envelope.error}`;
  return null;
}

/** A copy the run started (POST .../async answered a token), polled until it finishes. */
interface Started {
  namespace: string;
  token: string;
}

/** Why a poll of a real operation breaks the contract (a finished copy's error is a 4xx envelope), or null. */
function operationViolation(answer: Answer): string | null {
  if (answer.status !== 200) return `poll answered ${answer.status}: ${answer.text.slice(0, 500)}`;
  const op = JSON.parse(answer.text) as {
    status?: unknown;
    result?: {
      success?: unknown;
      error?: { status_code?: unknown; detail?: { status?: unknown; error?: unknown } };
    };
  };
  if (op.status === 'running') return null;
  if (op.status !== 'finished') return `poll status ${JSON.stringify(op.status)}`;
  const error = op.result?.error;
  if (error === undefined) return op.result?.success === undefined ? 'finished with no result' : null;
  if (typeof error.status_code !== 'number' || error.status_code >= 500 || error.status_code < 400)
    return `copy finished with status_code ${JSON.stringify(error.status_code)}: ${answer.text.slice(0, 500)}`;
  if (error.detail?.status !== 'error' || typeof error.detail.error !== 'string' || error.detail.error === '')
    return `copy error without the envelope: ${answer.text.slice(0, 500)}`;
  return null;
}

/** The outcome a poll reports, for the run's counts: running, success, or the error's status code. */
function operationOutcome(answer: Answer): string {
  const op = JSON.parse(answer.text) as { status: string; result?: { error?: { status_code: number } } };
  if (op.status === 'running') return 'running';
  return op.result?.error ? `error ${op.result.error.status_code}` : 'success';
}

function rssKb(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

/** A normal write and query on a namespace no fuzz case touches: the emulator still answers, exactly. */
async function canary(): Promise<void> {
  const query = await send(
    'POST',
    '/v2/namespaces/fz-canary/query',
    JSON.stringify({ rank_by: ['vector', 'ANN', [1, 0.1]], top_k: 2, include_attributes: ['n'] }),
    { 'content-type': 'application/json' },
  );
  expect(query.status, query.text).toBe(200);
  expect(JSON.parse(query.text).rows.map((r: { id: number; n: number }) => [r.id, r.n])).toEqual([
    [1, 1],
    [2, 2],
  ]);
}

it(`${RUNS} hostile bodies: never a 5xx, always the envelope naming the field, memory bounded`, {
  timeout: 120_000 + RUNS * 200,
}, async () => {
  const started = performance.now();
  const write = await send(
    'POST',
    '/v2/namespaces/fz-canary',
    JSON.stringify({
      upsert_rows: [
        { id: 1, vector: [1, 0], n: 1 },
        { id: 2, vector: [0, 1], n: 2 },
      ],
      distance_metric: 'cosine_distance',
    }),
    { 'content-type': 'application/json' },
  );
  expect(write.status, write.text).toBe(200);

  const counts = new Map<string, number>();
  const count = (key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  let cases = 0;
  const trail: number[] = [];
  // Copies still running: polled again at each canary and at the end until they finish (each in at most 20 s).
  let running: Started[] = [];
  /** The copy's outcome now: running, success or its error's status code. */
  const poll = async (op: Started) => {
    const answer = await send('GET', `/v1/namespaces/${op.namespace}/operations/${op.token}`, '', {});
    const problem = operationViolation(answer);
    if (problem) throw failure(problem, `GET operation ${op.token} of ${op.namespace}`, answer);
    return operationOutcome(answer);
  };
  const settle = async () => {
    const deadline = Date.now() + 20_000;
    while (running.length > 0) {
      const still: Started[] = [];
      for (const op of running) {
        const outcome = await poll(op);
        if (outcome === 'running') still.push(op);
        else count(`copy ${outcome}`);
      }
      running = still;
      if (running.length > 0 && Date.now() > deadline)
        throw new Error(`copies still running after 20 s: ${JSON.stringify(running)}`);
      if (running.length > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await fc.assert(
    fc.asyncProperty(fuzzCase, async (c) => {
      const answer = await send(c.method, c.path, c.body, c.headers);
      cases++;
      count(`${c.kind} ${answer.status}`);
      const problem = violation(c, answer);
      if (problem) throw failure(problem, `${c.method} ${c.path}\n${String(c.body)}`, answer);
      const token = c.kind === 'async' && answer.status === 200 ? JSON.parse(answer.text).token : undefined;
      // An empty namespace segment collapses (/v2/namespaces//async is a write to "async"): no token then.
      if (typeof token === 'string') {
        const op = { namespace: c.namespace, token };
        // At once (often still running), then under a namespace it does not belong to: a 404 envelope.
        const outcome = await poll(op);
        if (outcome === 'running') running.push(op);
        else count(`copy ${outcome}`);
        const other = NAMESPACES.find((ns) => ns !== op.namespace) ?? 'fz-a';
        const stray = await send('GET', `/v1/namespaces/${other}/operations/${op.token}`, '', {});
        const strayProblem = violation({ ...c, kind: 'operation', body: '' }, stray);
        if (stray.status !== 404 || strayProblem)
          throw failure(
            strayProblem ?? `expected 404, got ${stray.status}`,
            `GET operation ${op.token} of ${op.namespace}, polled under ${other}`,
            stray,
          );
      }
      if (cases % CANARY_EVERY === 0) {
        await settle();
        await canary();
      }
      // Resident memory at each tenth of the run: a leak shows as a climb, pooled buffers as a plateau.
      if (cases % Math.max(1, Math.floor(RUNS / 10)) === 0) trail.push(Math.round(rssKb('VmRSS') / 1024));
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  await settle();
  await canary();
  // Every namespace the cases wrote still answers a plain query (or is absent).
  for (const ns of [...NAMESPACES, ...COPY_TARGETS]) {
    const reply = await send('POST', `/v2/namespaces/${ns}/query`, '{"rank_by":["id","asc"],"top_k":5}', {
      'content-type': 'application/json',
    });
    expect([200, 404], reply.text).toContain(reply.status);
  }
  const peakMb = rssKb('VmHWM') / 1024;
  const seconds = (performance.now() - started) / 1000;
  const byKind = [...counts].sort().map(([k, n]) => `${k}: ${n}`);
  process.stdout.write(
    `fuzz: ${cases} cases, seed ${SEED}, ${seconds.toFixed(1)} s, emulator peak RSS ${peakMb.toFixed(0)} MB, by tenths of the run ${trail.join(' ')} MB\n  ${byKind.join('\n  ')}\n`,
  );
  expect(peakMb).toBeLessThan(RSS_LIMIT_MB);
  expect(proc.exitCode).toBeNull();
});
