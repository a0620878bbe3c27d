# Experiment 1's result JSON -> the Markdown report's table, exactly as lib/backlog/results/markdown.ts prints it
# (tests/backlog/jq.test.ts holds the two together): one row per phase x consistency, the same columns, labels and
# number formats.
# Usage: jq -r -f scripts/jq/backlog-table.jq runs/bench-backlog-<...>.json

# One decimal, rounded half up on the value (lib/results/format.ts roundedFixed).
def fixed1: (. * 10 | round) as $n | "\($n / 10 | floor).\($n % 10)";
def ms: if . == null then "—" elif . == floor then "\(.)ms" else "\(fixed1)ms" end;
# One significant digit, for shares under 0.1 % (toPrecision(1)).
def sig1: (log10 | floor) as $e | (. / pow(10; $e) | round) as $m
  | if $e < 0 then $m / pow(10; -$e) else $m * pow(10; $e) end | tostring;
def pct: if . == 0 then "0%" else (. * 100) as $p | "\(if $p < 0.1 then ($p | sig1) else ($p | fixed1) end)%" end;
# Binary units, at most two decimals (core/sizes.ts formatBytes).
def bytes:
  if . == null then "—"
  else {v: ., u: 0}
    | until((if .v < 0 then -.v else .v end) < 1024 or .u == 4; .v /= 1024 | .u += 1)
    | "\(if .u == 0 then .v else (.v * 100 | round) / 100 end) \(["B", "KiB", "MiB", "GiB", "TiB"][.u])"
  end;

.config as $c
| def phase_label:
    if . == "idle" then "Idle"
    elif . == "indexing_below_limit" then "Indexing, backlog \($c.LT_START_BYTES | bytes) – \($c.LT_CAP_BYTES | bytes)"
    else "Indexing, backlog ≥ \($c.GT_START_BYTES | bytes)" end;
"| Phase | Consistency | Requests | QPS | Errors | Client p50 | p95 | p99 | Server p50 | p95 | Backlog start | Backlog end |",
"|---|---|---|---|---|---|---|---|---|---|---|---|",
(.cells[]
  | [(.phase | phase_label), .consistency, (.requests | tostring), (.qps | fixed1),
     "\(.error_rate | pct)\(if .errors_expected then " (expected 429)" else "" end)",
     (.client_ms.p50 | ms), (.client_ms.p95 | ms), (.client_ms.p99 | ms), (.server_ms.p50 | ms), (.server_ms.p95 | ms),
     (.backlog_bytes.start | bytes), (.backlog_bytes.end | bytes)]
  | "| \(join(" | ")) |")
