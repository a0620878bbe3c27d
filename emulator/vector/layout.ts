// Where everything lives inside one segment's shared memory, and how big segments are (pure arithmetic).
//
//   0            per-thread scratch slots (query, its codes, chunk of scores, chunk of row ids), one per thread
//   vectors      capacity x dims f32, the rows as appended (row-major)            written by append()
//   codes        capacity x dims int8, row order                                 written by indexing
//   scales       capacity f32 (codes * scale = the row, normalised for cosine)   written by indexing
//   norms        capacity f32 (1/|x| for cosine, |x|^2 for euclidean)            written by indexing
//   residuals    capacity f32, |quantisation error| of each row (exact scans)  written by indexing
//   signs        capacity x signBytes, sign sketch of each row's codes (ANN pre-pass; 0 bytes unless dims % 16 == 0)
//   ids          capacity u32, the segment's local row numbers in list order      written once, when the IVF is built
//   centroids    maxLists x dims f32                                             written once, with ids
//   listOffsets  (maxLists + 1) u32, list l = ids[listOffsets[l] .. listOffsets[l+1])
//   radii        maxLists f32, 95th percentile of a list's rows' chord distances from its centroid (pruning)
//   centroidCodes maxLists x dims int8 + maxLists f32 scales + maxLists f32 norms: the centroids quantised, for
//                the int8 assignment of rows while the IVF is built (scratch of the index worker)
//
// Every region is written once per row (or once per segment) before an index snapshot that reads it is published,
// so readers never need locks.

/** Rows a kernel call handles at a time: bounds the scratch (16 KB of scores) and keeps JS selection cache-warm. */
export const CHUNK_ROWS = 4096;
/** Upper bound on IVF lists per segment. */
export const MAX_LISTS = 128;
/** The first segment's rows; each next segment doubles, up to MAX_SEGMENT_ROWS. */
const FIRST_SEGMENT_ROWS = 4096;
const MAX_SEGMENT_ROWS = 65_536;
/** Keeps one segment's memory well under wasm's 4 GiB for very wide vectors. */
const MAX_SEGMENT_BYTES = 512 * 1024 * 1024;

const PAGE = 65_536;
const align16 = (n: number): number => Math.ceil(n / 16) * 16;

export interface SlotLayout {
  /** dims f32: the query (unit length for cosine). */
  query: number;
  /** dims i16: the quantised query, widened for the estimate kernels. */
  queryCodes: number;
  /** dims int8: where the quantiser writes the query codes before widening (the upper half of queryCodes). */
  queryCodes8: number;
  /** f32 scale, norm and residual of the quantised query. */
  queryScale: number;
  queryNorm: number;
  queryResidual: number;
  /** CHUNK_ROWS f32 kernel outputs. */
  scores: number;
  /** CHUNK_ROWS u32 local row numbers for gather kernels. */
  ids: number;
  /** signBytes: the query's sign sketch. */
  querySigns: number;
}

export interface SegmentLayout {
  dims: number;
  capacity: number;
  slots: number;
  slotBytes: number;
  vectors: number;
  codes: number;
  scales: number;
  norms: number;
  residuals: number;
  /** Bytes of one row's sign sketch (0: no sketches at these dims). */
  signBytes: number;
  signs: number;
  ids: number;
  centroids: number;
  listOffsets: number;
  radii: number;
  centroidCodes: number;
  centroidScales: number;
  centroidNorms: number;
  bytes: number;
  pages: number;
}

/**
 * Bytes of a sign sketch (one bit per dimension, padded to 16 bytes for the kernels), or 0 where the kernels cannot
 * build one (dims not a multiple of 16).
 */
export function signBytes(dims: number): number {
  return dims % 16 === 0 ? align16(dims / 8) : 0;
}

/** Bytes per row over all per-row regions. */
function rowBytes(dims: number): number {
  return dims * 4 + dims + 4 + 4 + 4 + 4 + signBytes(dims);
}

/** Row capacity of the segment with this index (0, 1, 2, ...): geometric growth, capped in rows and bytes. */
export function segmentCapacity(index: number, dims: number): number {
  const geometric = FIRST_SEGMENT_ROWS * 2 ** Math.min(index, 30);
  const byBytes = Math.max(1, Math.floor(MAX_SEGMENT_BYTES / rowBytes(dims)));
  return Math.min(geometric, MAX_SEGMENT_ROWS, byBytes);
}

export function segmentLayout(dims: number, capacity: number, slots: number): SegmentLayout {
  const slotBytes = align16(dims * 4) + align16(dims * 2) + 16 + CHUNK_ROWS * 8 + signBytes(dims);
  let at = slots * slotBytes;
  const take = (bytes: number): number => {
    const start = at;
    at = align16(at + bytes);
    return start;
  };
  const vectors = take(capacity * dims * 4);
  const codes = take(capacity * dims);
  const scales = take(capacity * 4);
  const norms = take(capacity * 4);
  const residuals = take(capacity * 4);
  const signs = take(capacity * signBytes(dims));
  const ids = take(capacity * 4);
  const centroids = take(MAX_LISTS * dims * 4);
  const listOffsets = take((MAX_LISTS + 1) * 4);
  const radii = take(MAX_LISTS * 4);
  const centroidCodes = take(MAX_LISTS * dims);
  const centroidScales = take(MAX_LISTS * 4);
  const centroidNorms = take(MAX_LISTS * 4);
  const pages = Math.ceil(at / PAGE);
  return {
    dims,
    capacity,
    slots,
    slotBytes,
    vectors,
    codes,
    scales,
    norms,
    residuals,
    signBytes: signBytes(dims),
    signs,
    ids,
    centroids,
    listOffsets,
    radii,
    centroidCodes,
    centroidScales,
    centroidNorms,
    bytes: at,
    pages,
  };
}

export function slotLayout(layout: SegmentLayout, slot: number): SlotLayout {
  if (slot < 0 || slot >= layout.slots) throw new RangeError(`slot ${slot} outside 0..${layout.slots - 1}`);
  const base = slot * layout.slotBytes;
  const query = base;
  const queryCodes = query + align16(layout.dims * 4);
  const queryCodes8 = queryCodes + layout.dims;
  const queryScale = queryCodes + align16(layout.dims * 2);
  const queryNorm = queryScale + 4;
  const queryResidual = queryScale + 8;
  const scores = queryScale + 16;
  const ids = scores + CHUNK_ROWS * 4;
  const querySigns = ids + CHUNK_ROWS * 4;
  return { query, queryCodes, queryCodes8, queryScale, queryNorm, queryResidual, scores, ids, querySigns };
}
