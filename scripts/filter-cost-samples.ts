// Raw client latencies per measured cell from a run's `--out json` stream (k6 NDJSON, optionally gzipped): the
// successful queries' http_req_duration points, grouped by their shape and selectivity tags. Streamed line by line.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { WARMUP_SHAPE } from '../lib/filter-cost/metric-keys';

interface PointLine {
  metric?: string;
  type?: string;
  data?: { value?: number; tags?: Record<string, string> };
}

/** `shape|selectivity` -> latencies in ms (unsorted). */
export async function readCellLatencies(path: string): Promise<Map<string, number[]>> {
  const raw = createReadStream(path);
  const input = path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  const out = new Map<string, number[]>();
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    // Most lines are other metrics: skip them before parsing.
    if (!line.includes('"http_req_duration"') || !line.includes('"shape"')) continue;
    const point = JSON.parse(line) as PointLine;
    const tags = point.data?.tags;
    const value = point.data?.value;
    if (point.type !== 'Point' || point.metric !== 'http_req_duration' || !tags || value === undefined)
      continue;
    if (tags.expected_response !== 'true' || tags.shape === undefined || tags.shape === WARMUP_SHAPE)
      continue;
    const key = cellSampleKey(tags.shape, tags.selectivity ?? '');
    let list = out.get(key);
    if (!list) {
      list = [];
      out.set(key, list);
    }
    list.push(value);
  }
  return out;
}

export function cellSampleKey(shape: string, selectivity: string): string {
  return `${shape}|${selectivity}`;
}
