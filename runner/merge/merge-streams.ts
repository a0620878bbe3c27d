// bench merge's engine: replays the samples of a test's --out json streams into one run of the summary machinery
// (text summary, thresholds on the merged samples, --out, --summary-export and, with a script, its thresholds and
// handleSummary()). Without a script, a stand-in declares the streams' custom metrics and thresholds.
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { usageError } from '../../core/errors';
import { Logger } from '../engine/logger';
import { BUILTIN_NAMES } from '../metrics/builtin';
import { runTest } from '../run-test';
import { type DeclaredThresholds, JsonSampleReader, readLines } from './json-samples';
import { isSummaryExport, type SummaryExport } from './summary-exports';

/** What bench merge replays: the streams, and what the summary machinery gets beside them. */
export interface MergeStreamsInput {
  files: string[];
  script?: string;
  setupData?: string;
  env: Record<string, string>;
  out: string[];
  summaryExport?: string;
  summaryMode: 'compact' | 'full' | 'disabled';
  noColor: boolean;
}

/**
 * --setup-data's file as the JSON text handleSummary() gets as setup_data: a bench experiment result (an object with
 * `experiment` and `setup_data`, which every runner of a split test writes with the same data) gives its member,
 * any other JSON value is the data itself.
 */
function setupDataOf(file: string, text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`--setup-data ${file} is not JSON: ${(error as Error).message}`);
  }
  if (value !== null && typeof value === 'object' && 'experiment' in value && 'setup_data' in value)
    return JSON.stringify(value.setup_data);
  return JSON.stringify(value);
}

/** A summary export is one indented JSON object; a stream has one JSON object per line. */
export function readExport(file: string): SummaryExport | undefined {
  if (file.endsWith('.gz')) return undefined;
  const text = readFileSync(file, 'utf8');
  const firstLine = text.slice(0, text.indexOf('\n') >>> 0).trim();
  if (firstLine !== '{') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isSummaryExport(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw usageError(`cannot read --setup-data ${file}: ${(error as Error).message}`);
  }
}

function lines(file: string): AsyncIterable<Buffer> {
  const raw = createReadStream(file);
  return file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
}

/** Metric definitions and thresholds the streams declare (a first pass over their Metric lines). */
async function declared(
  files: string[],
): Promise<{ metrics: Map<string, [string, string]>; thresholds: DeclaredThresholds }> {
  const metrics = new Map<string, [string, string]>();
  const thresholds: DeclaredThresholds = {};
  for (const file of files)
    await readLines(lines(file), (l) => {
      if (!l.startsWith('{"type":"Metric"')) return;
      const { data } = JSON.parse(l) as {
        data: { name: string; type: string; contains: string; thresholds: DeclaredThresholds[string] };
      };
      metrics.set(data.name, [data.type, data.contains]);
      if (data.thresholds.length > 0) thresholds[data.name] = data.thresholds;
    });
  return { metrics, thresholds };
}

/** Without --script: a script that only declares the streams' custom metrics and thresholds. */
function standInScript(
  dir: string,
  metrics: Map<string, [string, string]>,
  thresholds: DeclaredThresholds,
): string {
  const ctor: Record<string, string> = { counter: 'Counter', gauge: 'Gauge', rate: 'Rate', trend: 'Trend' };
  const custom = [...metrics]
    .filter(([name]) => !BUILTIN_NAMES.has(name))
    .map(
      ([name, [type, contains]]) =>
        `new ${ctor[type] ?? 'Counter'}(${JSON.stringify(name)}${contains === 'time' ? ', true' : ''});`,
    );
  const file = join(dir, 'merged-streams.js');
  writeFileSync(
    file,
    [
      "import { Counter, Gauge, Rate, Trend } from 'k6/metrics';",
      ...custom,
      `export const options = ${JSON.stringify({
        thresholds,
        scenarios: { merged: { executor: 'shared-iterations', vus: 1, iterations: 1 } },
      })};`,
      'export default function () {}',
      '',
    ].join('\n'),
  );
  return file;
}

/** The merged vus / vus_max gauges: per second, the sum of every stream's latest value. */
class GaugeSums {
  private readonly perStream: Array<Map<number, number>> = [];

  stream(): Map<number, number> {
    const m = new Map<number, number>();
    this.perStream.push(m);
    return m;
  }

  sums(): Array<[number, number]> {
    const seconds = [...new Set(this.perStream.flatMap((m) => [...m.keys()]))].sort((a, b) => a - b);
    const last = this.perStream.map(() => 0);
    return seconds.map((s) => {
      this.perStream.forEach((m, i) => {
        const v = m.get(s);
        if (v !== undefined) last[i] = v;
      });
      return [s * 1000, last.reduce((a, b) => a + b, 0)];
    });
  }
}

export async function mergeStreams(f: MergeStreamsInput): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-merge-'));
  try {
    let scriptPath = f.script;
    if (!scriptPath) {
      const { metrics, thresholds } = await declared(f.files);
      scriptPath = standInScript(dir, metrics, thresholds);
    }
    const setupData = f.setupData === undefined ? undefined : setupDataOf(f.setupData, readText(f.setupData));
    let first = Number.POSITIVE_INFINITY;
    let last = 0;
    const logger = new Logger({
      verbose: false,
      format: 'text',
      output: 'stderr',
      tty: Boolean(process.stderr.isTTY),
      noColor: f.noColor,
    });
    return await runTest({
      scriptPath,
      cliOptions: {},
      cliEnv: f.env,
      processEnv: process.env,
      includeSystemEnvVars: true,
      noThresholds: false,
      out: f.out,
      summaryExport: f.summaryExport,
      summaryMode: f.summaryMode,
      quiet: true,
      noColor: f.noColor,
      logger,
      stdout: process.stdout,
      handleSignals: false,
      handedSetup: { ready: () => Promise.resolve({ setupData }) },
      remote: {
        description: `merge of ${f.files.length} streams`,
        replay: true,
        vus: () => ({ active: 0, initialized: 0 }),
        durationMs: () => (last >= first ? last - first : 0),
        async run({ aggregator, registry }) {
          const vus = new GaugeSums();
          const vusMax = new GaugeSums();
          for (const file of f.files) {
            const ownVus = vus.stream();
            const ownMax = vusMax.stream();
            const reader = new JsonSampleReader(
              registry,
              (sample) => {
                const second = Math.floor(sample.time / 1000);
                if (sample.metric === 'vus') ownVus.set(second, sample.value);
                else if (sample.metric === 'vus_max') ownMax.set(second, sample.value);
                else aggregator.addLocal(sample);
              },
              file,
            );
            await readLines(lines(file), (l) => reader.line(l));
            first = Math.min(first, reader.stats.first);
            last = Math.max(last, reader.stats.last);
          }
          for (const [metric, sums] of [
            ['vus', vus.sums()],
            ['vus_max', vusMax.sums()],
          ] as const)
            for (const [time, value] of sums) aggregator.addLocal({ metric, time, value, tags: {} });
        },
      },
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
