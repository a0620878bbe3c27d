# A `--out json` stream of experiment 1 -> client latency of the queries per phase x consistency (transition
# included), with k6's percentile rule (linear interpolation at p*(n-1)). Streams: memory holds only the values.
# Failed queries (e.g. the 429s of strong reads above the limit) count too; add `and .data.tags.status == "200"`
# to the select for successful ones only, as in the result table.
# Usage: jq -n -r -f scripts/jq/phase-latency.jq results/scratch/out.json
def percentile(p):
  length as $n
  | if $n == 0 then null
    else (p * ($n - 1)) as $i | ($i | floor) as $lo | ([$lo + 1, $n - 1] | min) as $hi
    | .[$lo] + (.[$hi] - .[$lo]) * ($i - $lo)
    end;
def r2: (. * 100 | round) / 100;
def order: {idle: 0, indexing_below_limit: 1, indexing_above_limit: 2, transition: 3}[.] // 4;

reduce (inputs | select(.type == "Point" and .metric == "http_req_duration" and .data.tags.name == "query")) as $p
  ({}; .["\($p.data.tags.phase)/\($p.data.tags.consistency)"] += [$p.data.value])
| to_entries
| map((.key | split("/")) as [$phase, $consistency] | {$phase, $consistency, values: (.value | sort)})
| sort_by([(.phase | order), .consistency != "strong"])
| (["phase", "consistency", "count", "p50_ms", "p95_ms", "p99_ms", "max_ms"] | @tsv),
  (.[] | [.phase, .consistency, (.values | length), (.values | percentile(0.5) | r2),
          (.values | percentile(0.95) | r2), (.values | percentile(0.99) | r2), (.values | max | r2)] | @tsv)
