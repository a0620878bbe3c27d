import { describe, expect, it } from 'vitest';
import { multilineStrings, smallDefinition, templateFunctions } from './tpuf-definition';

// Written here in the tool's format, not copied from it: a vector setup from a file source with a random query
// workload, and a text setup whose templates need the file source's text and query functions.
const VECTOR = `name = "vectors_try"
namespaces = 1
duration = "30m"
description = """
Vectors; the text in here is not a template: {{ text }} and datasource = "Deep1B"
"""

[setup]
wait_for_indexing = true
document_count = 10_000_000 # ten million
datasource = "CohereWikipediaEmbeddings"
document_template = """
{
    "id": {{ id }},
    "vector": {{ vector 1024 }}
}
"""
upsert_template = """
{
    "upsert_rows": [
        {{ .UpsertBatchPlaceholder }}
    ],
    "qps": 900,
    "distance_metric": "cosine_distance"
}
"""

[workload.query.ann]
qps = 500
concurrency = 128
datasource = "random"
template = """
{
    "top_k": 10,
    "rank_by": ["vector", "ANN", {{ vector 1024 }}]
}
"""
`;

const TEXT = `name = "text_try"

[setup]
document_count = 100_000_000
datasource = "CohereMSMarco"
document_template = """
{ "id": {{ id }}, "text": {{ json (text) }} }
"""

[workload.query.hybrid]
qps = 2
concurrency = 256
datasource = "CohereMSMarco"
template = """
{{ $q := query }}
{ "rank_by": ["text", "BM25", {{ json $q.Text }}], "vector": {{ $q.Vector 1024 }} }
"""
`;

const RUN = { documents: 2000, qps: 4, concurrency: 3 };

describe('smallDefinition', () => {
  it('changes the numbers and a file datasource whose templates random serves, nothing else', () => {
    const { toml, changes, fileDatasources } = smallDefinition(VECTOR, RUN);
    expect(changes).toEqual([
      'setup: document_count 10_000_000 -> 2000',
      'setup: datasource "CohereWikipediaEmbeddings" -> "random"',
      'workload.query.ann: qps 500 -> 4',
      'workload.query.ann: concurrency 128 -> 3',
    ]);
    expect(fileDatasources).toEqual([]);
    expect(toml).toContain('document_count = 2000 # ten million\n');
    expect(toml).toContain('[setup]\nwait_for_indexing = true\n');
    expect(toml).toContain('duration = "30m"');
    // The templates and the description, "qps": 900 and the datasource inside it included, byte for byte.
    expect(multilineStrings(toml)).toEqual(multilineStrings(VECTOR));
    expect(toml.split('\n')).toHaveLength(VECTOR.split('\n').length);
  });

  it('keeps a datasource whose templates call text or query, and says so', () => {
    const { toml, changes, fileDatasources } = smallDefinition(TEXT, RUN);
    expect(changes).toEqual([
      'setup: document_count 100_000_000 -> 2000',
      'workload.query.hybrid: concurrency 256 -> 3',
    ]);
    expect(fileDatasources).toEqual(['CohereMSMarco']);
    expect(toml).toContain('qps = 2\n');
    expect(multilineStrings(toml)).toEqual(multilineStrings(TEXT));
  });

  it('leaves a definition already small as it is', () => {
    const once = smallDefinition(VECTOR, RUN).toml;
    const twice = smallDefinition(once, RUN);
    expect(twice.changes).toEqual([]);
    expect(twice.toml).toBe(once);
  });

  it('refuses a rate it cannot read', () => {
    expect(() => smallDefinition('[workload.query.q]\nqps = "fast"\n', RUN)).toThrow(
      'workload.query.q: qps = "fast" is not a number',
    );
  });
});

describe('templateFunctions', () => {
  it('names the functions called, not fields, variables or quoted text', () => {
    const names = templateFunctions(
      '{{ $q := query }} {{ json $q.Text }} {{ vector 96 }} "text" {{ printf "%s id" .X }}',
    );
    expect([...names].sort()).toEqual(['json', 'printf', 'query', 'vector']);
  });

  it('reads actions that span lines and trim markers', () => {
    expect([...templateFunctions('{{- range $i, $_ := N 8 -}}\n{{- if $i }},{{ end }}')].sort()).toEqual([
      'N',
      'end',
      'if',
      'range',
    ]);
  });
});
