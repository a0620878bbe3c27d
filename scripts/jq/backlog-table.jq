# Experiment 1's result JSON -> the published table (Markdown), one row per phase x consistency.
# Usage: jq -r -f scripts/jq/backlog-table.jq results/bench-backlog-<...>.json
def ms: if . == null then "—" else "\((. * 10 | round) / 10)ms" end;
def pct: if . == 0 then "0%" else "\((. * 1000 | round) / 10)%" end;
def mib: if . == null then "—" else "\((. / 1048576 * 10 | round) / 10) MiB" end;
def phase_label:
  {idle: "Idle", indexing_below_limit: "Indexing, below limit", indexing_above_limit: "Indexing, above limit"}[.];

"| Phase | Consistency | Errors | Client p50 | p95 | p99 | Server p50 | p95 | QPS | Backlog start | Backlog end |",
"|---|---|---|---|---|---|---|---|---|---|---|",
(.cells[]
  | "| \(.phase | phase_label) | \(.consistency) | \(.error_rate | pct) | \(.client_ms.p50 | ms) | \(.client_ms.p95 | ms) | \(.client_ms.p99 | ms) | \(.server_ms.p50 | ms) | \(.server_ms.p95 | ms) | \((.qps * 10 | round) / 10) | \(.backlog_bytes.start | mib) | \(.backlog_bytes.end | mib) |")
