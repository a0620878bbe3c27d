// Small random stand-ins for the files the benchmark tool's CohereMSMarco datasource reads (tpuf-benchmark's
// pkg/datasource/cohere_msmarco.go), so its text and hybrid definitions run offline: `random` serves no text, and
// their templates call `text`, `query` and `full_text_query`. The tool looks for each file in DATASET_CACHE_DIR by
// name before downloading it; the columns it reads are the ones given here by position (a passage's segment text at
// 4 and its 1024-float embedding at 7; a query's text at 1 and embedding at 3). Words come from one small vocabulary,
// so BM25 queries find documents. Pure, so tested alone.
import { type ParquetColumn, parquetFile } from './parquet-file';

/** The dimensions the tool's parsers require of every embedding. */
export const MSMARCO_DIMS = 1024;
/** How many passage files the tool walks through, by name; each stand-in is the same small file. */
export const MSMARCO_PASSAGE_FILES = 60;

export const passageFileName = (index: number): string =>
  `msmarco_v2.1_doc_segmented_${String(index).padStart(2, '0')}.parquet`;
export const QUERY_FILE_NAME = 'queries.parquet';

/** A seeded PRNG (mulberry32): the same seed makes the same files. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pen', 'dor', 'ga', 'bel', 'tu', 'rix'];

function vocabulary(next: () => number, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const parts = 1 + Math.floor(next() * 3);
    words.add(Array.from({ length: parts }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(''));
  }
  return [...words];
}

/** The stand-in files: name -> bytes. `passages` rows per passage file, `queries` rows in the query file. */
export function msmarcoStandIns(passages: number, queries: number, seed = 1): Map<string, Uint8Array> {
  const next = random(seed);
  const words = vocabulary(next, 400);
  const sentence = (min: number, max: number): string =>
    Array.from(
      { length: min + Math.floor(next() * (max - min + 1)) },
      () => words[Math.floor(next() * words.length)],
    ).join(' ');
  const embedding = (): Float32Array => Float32Array.from({ length: MSMARCO_DIMS }, () => next() * 2 - 1);
  const ints = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

  const passageColumns: ParquetColumn[] = [
    { name: 'docid', type: 'int32', values: ints(passages) },
    { name: 'url', type: 'int32', values: ints(passages) },
    { name: 'title', type: 'int32', values: ints(passages) },
    { name: 'headings', type: 'int32', values: ints(passages) },
    { name: 'segment', type: 'string', values: Array.from({ length: passages }, () => sentence(20, 60)) },
    { name: 'start_char', type: 'int32', values: ints(passages) },
    { name: 'end_char', type: 'int32', values: ints(passages) },
    { name: 'emb', type: 'float-list', values: Array.from({ length: passages }, embedding) },
  ];
  const queryColumns: ParquetColumn[] = [
    { name: '_id', type: 'int32', values: ints(queries) },
    { name: 'text', type: 'string', values: Array.from({ length: queries }, () => sentence(2, 6)) },
    { name: 'lang', type: 'int32', values: ints(queries) },
    { name: 'emb', type: 'float-list', values: Array.from({ length: queries }, embedding) },
  ];
  const files = new Map<string, Uint8Array>();
  const passageFile = parquetFile(passageColumns);
  for (let i = 0; i < MSMARCO_PASSAGE_FILES; i++) files.set(passageFileName(i), passageFile);
  files.set(QUERY_FILE_NAME, parquetFile(queryColumns));
  return files;
}
