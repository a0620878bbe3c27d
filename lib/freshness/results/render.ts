// Experiment 3's result as Markdown (the report: visibility first, then recall, latency, write acknowledgements and
// the documented behaviour against the measurements) and as the end-of-test console summary. Pure.
import { formatBytes } from '../../../core/sizes';
import { formatBytesOrDash, formatFixed, formatMs, formatPercent } from '../../results/format';
import {
  consoleSummary,
  errorsByStatusMarkdown,
  outcomeMarkdown,
  runItemsMarkdown,
  statusMarkdown,
} from '../../results/run-sections';
import { markdownTable, textTable } from '../../results/table';
import type { BandName } from '../bands';
import type { FreshnessResult, VisibilityRow } from './shape';

const BAND_LABEL: Record<BandName, string> = {
  idle: 'idle',
  below_tail: 'below the tail limit',
  above_tail: 'tail to limit',
  above_limit: 'above the limit',
};

const share = (x: number | null) => (x === null ? '—' : formatPercent(x));

function visibilityFigures(v: VisibilityRow): string[] {
  return [
    String(v.probes),
    share(v.seen_at_first_read),
    formatMs(v.lag_ms.p50),
    formatMs(v.lag_ms.p95),
    formatMs(v.lag_ms.p99),
    formatMs(v.lag_ms.max),
    String(v.never_seen),
    String(v.first_read.refused),
  ];
}

const VISIBILITY_HEADER = [
  'Band',
  'Consistency',
  'Read',
  'Probes',
  'Seen at 1st read',
  'Lag p50',
  'p95',
  'p99',
  'max',
  'Never seen',
  'Refused',
];

export function renderFreshnessMarkdown(r: FreshnessResult): string {
  const c = r.config;
  const lines = [
    ...statusMarkdown(r),
    `# Experiment 3: how fresh are reads while indexing? (${r.namespace})`,
    '',
    ...runItemsMarkdown(r),
    `- Scale: ${c.SEED_ROWS} seed rows of ${c.DIMS}-d f32, seed ${c.SEED}; eventual tail limit ` +
      `${formatBytes(r.limits.tail_limit_bytes)}, unindexed limit ${formatBytes(r.limits.backlog_limit_bytes)}; ` +
      `${c.BAND_DURATION_S} s per band after ${c.BAND_WARMUP_S} s warm-up`,
    `- Probes: ${c.PROBE_RATE} a second of ${c.PROBE_ROWS} rows each, read every ${c.PROBE_INTERVAL_MS} ms (the lag's ` +
      `resolution) for at most ${c.PROBE_TIMEOUT_S} s, by id and by ANN (top_k ${c.TOP_K}) at both consistencies`,
    '',
    '## Bands',
    '',
    ...markdownTable(
      ['Band', 'Gate (unindexed bytes)', 'Backlog at start', 'at end', 'Probes', 'Rows per bulk write'],
      r.bands.map((b) => [
        BAND_LABEL[b.band],
        b.band === 'idle'
          ? '—'
          : `${formatBytes(b.gate.min)} – ${b.gate.max === null ? '∞' : formatBytes(b.gate.max)}`,
        formatBytesOrDash(b.backlog_bytes.start),
        formatBytesOrDash(b.backlog_bytes.end),
        String(b.probes),
        String(b.bulk_batch_rows),
      ]),
    ),
    '',
    '## Visibility of each write',
    '',
    ...markdownTable(
      VISIBILITY_HEADER,
      r.visibility.map((v) => [BAND_LABEL[v.band], v.consistency, v.method, ...visibilityFigures(v)]),
    ),
    '',
    `Lag: from a probe's acknowledgement to the start of the first read that returned it, in steps of the probe ` +
      `interval (${r.limits.probe_interval_ms} ms). "Seen at 1st read" counts the first reads that were answered; ` +
      'refused reads (429 above the limit) are counted apart, not as misses.',
    '',
    '## Recall',
    '',
    ...markdownTable(
      [
        'Band',
        'Consistency',
        `Recall@${c.TOP_K}, all rows`,
        'Queries',
        'Recall of the newest writes',
        'Probes',
      ],
      r.queries.map((q) => [
        BAND_LABEL[q.band],
        q.consistency,
        formatFixed(q.recall_at_k.mean, 4),
        String(q.recall_at_k.queries),
        formatFixed(q.recent_recall.mean, 4),
        String(q.recent_recall.probes),
      ]),
    ),
    '',
    `Recall@${c.TOP_K}, all rows: sampled ANN queries against an exact kNN query of the same vector (strong), over ` +
      "every acknowledged row. Recall of the newest writes: the share of a probe's rows its first ANN read returned, " +
      `for writes younger than one probe interval.`,
    '',
    '## Query latency',
    '',
    ...markdownTable(
      ['Band', 'Consistency', 'Requests', 'Errors', 'Client p50', 'p95', 'p99', 'p99 / idle p99'],
      r.queries.map((q) => [
        BAND_LABEL[q.band],
        q.consistency,
        String(q.requests),
        formatPercent(q.error_rate),
        formatMs(q.client_ms.p50),
        formatMs(q.client_ms.p95),
        formatMs(q.client_ms.p99),
        q.p99_jitter === null ? '—' : `${q.p99_jitter.toFixed(2)}x`,
      ]),
    ),
    ...errorsByStatusMarkdown(r.queries, (q) => `${BAND_LABEL[q.band]}, ${q.consistency}`),
    '',
    '## Write acknowledgement',
    '',
    ...markdownTable(
      ['Band', 'Writer', 'Rows per write', 'Writes', 'p50', 'p95', 'p99'],
      r.write_ack.map((w) => [
        BAND_LABEL[w.band],
        w.writer,
        String(w.rows_per_write),
        String(w.writes),
        formatMs(w.ms.p50),
        formatMs(w.ms.p95),
        formatMs(w.ms.p99),
      ]),
    ),
    '',
    '## Documented behaviour against this run',
    '',
    ...markdownTable(
      ['Documented', 'Measured', 'Verdict', 'Why'],
      r.claims.map((claim) => [claim.claim, claim.measured, claim.verdict, claim.why || '—']),
    ),
    '',
    `Bulk writers: ${r.writes.rows} rows acknowledged after setup; ${r.writes.errors} failed write requests.`,
    '',
    ...outcomeMarkdown(r),
  ];
  return `${lines.join('\n')}\n`;
}

export function renderFreshnessText(r: FreshnessResult, files: string[]): string {
  const header = [
    'band',
    'consistency',
    'read',
    'probes',
    '1st read',
    'lag p50',
    'p95',
    'p99',
    'max',
    'never',
    'refused',
  ];
  const rows = r.visibility.map((v) => [
    BAND_LABEL[v.band],
    v.consistency,
    v.method,
    ...visibilityFigures(v),
  ]);
  const claims = r.claims.map((claim) => `  ${claim.verdict.padEnd(19)} ${claim.claim}`);
  return consoleSummary(
    r,
    'freshness experiment',
    `namespace ${r.namespace}`,
    claims,
    textTable(header, rows),
    files,
  );
}
