// Reads the frames of one log segment and says how it ends: cleanly, with a torn tail, or damaged. It only looks at
// framing (record.ts), never at what a record holds, and changes nothing: file-wal.ts decides what to do.
//
// A torn tail is what a crash in the middle of an append leaves: the file ends inside the last frame, and the bytes
// there are a prefix of a frame (a header prefix starting with the magic, or a whole header whose body is cut short).
// Such an append never returned, so it was never acknowledged, and dropping it loses nothing. Anything else is
// damage: a complete frame whose checksum fails (an append that returned wrote every byte), a header that is not
// one, a length that does not match the body, or any intact frame after the bad spot (acknowledged records follow).
import type { FileHandle } from 'node:fs/promises';
import { open } from 'node:fs/promises';
import { type DecodedHeader, decodeHeader, HEADER_BYTES, MAGIC, verify } from './record';
import type { WalRecord } from './wal';

const MAGIC_BYTES = Buffer.alloc(4);
MAGIC_BYTES.writeUInt32LE(MAGIC, 0);

/** How far the forward search for intact frames reads at a time. */
const SEARCH_CHUNK = 1 << 20;

type SegmentEnd =
  | { kind: 'clean' }
  /** The last frame is incomplete: `bytes` from `offset` to the end of the file. */
  | { kind: 'torn'; offset: number; bytes: number }
  /** The frame at `offset` is bad; `intactAfter` whole frames were found after it (acknowledged records). */
  | { kind: 'damaged'; offset: number; reason: string; intactAfter: number };

export interface SegmentScan {
  /** Whole, verified frames before the end (or before the torn or damaged one). */
  records: number;
  /** Bytes those frames take: where a torn or damaged frame starts. */
  goodBytes: number;
  size: number;
  end: SegmentEnd;
}

async function readAt(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

interface Frame {
  header: Buffer;
  decoded: DecodedHeader;
  body: Buffer;
  end: number;
}

/** The verified frame starting at `offset`, or null. */
async function frameAt(handle: FileHandle, offset: number, size: number): Promise<Frame | null> {
  if (size - offset < HEADER_BYTES) return null;
  const header = await readAt(handle, HEADER_BYTES, offset);
  const decoded = decodeHeader(header);
  if (!decoded) return null;
  const end = offset + HEADER_BYTES + decoded.bodyBytes;
  if (end > size) return null;
  const body = await readAt(handle, decoded.bodyBytes, offset + HEADER_BYTES);
  return verify(header, decoded, body) ? { header, decoded, body, end } : null;
}

/** How many intact frames follow the first one found after `from` (0 when none is found). */
async function intactFramesAfter(handle: FileHandle, from: number, size: number): Promise<number> {
  for (let pos = from; pos < size; pos += SEARCH_CHUNK) {
    // Overlap by 3 bytes so a magic split across two reads is still seen.
    const chunk = await readAt(handle, Math.min(SEARCH_CHUNK + 3, size - pos), pos);
    for (let hit = chunk.indexOf(MAGIC_BYTES); hit >= 0 && hit < SEARCH_CHUNK; ) {
      let frame = await frameAt(handle, pos + hit, size);
      if (frame) {
        let count = 0;
        while (frame) {
          count++;
          frame = frame.end < size ? await frameAt(handle, frame.end, size) : null;
        }
        return count;
      }
      hit = chunk.indexOf(MAGIC_BYTES, hit + 1);
    }
  }
  return 0;
}

/** Why the bytes at `offset` are not a torn tail, or null when they are one. */
async function classify(
  handle: FileHandle,
  offset: number,
  size: number,
): Promise<{ torn: true } | { torn: false; reason: string }> {
  const rest = size - offset;
  const header = await readAt(handle, Math.min(rest, HEADER_BYTES), offset);
  if (rest < HEADER_BYTES) {
    const prefix = Math.min(rest, MAGIC_BYTES.length);
    return header.subarray(0, prefix).equals(MAGIC_BYTES.subarray(0, prefix))
      ? { torn: true }
      : { torn: false, reason: `${rest} trailing bytes that are not the start of a record` };
  }
  const decoded = decodeHeader(header);
  if (!decoded) return { torn: false, reason: 'not a record header (wrong magic or record kind)' };
  const declaredEnd = offset + HEADER_BYTES + decoded.bodyBytes;
  if (declaredEnd <= size)
    return { torn: false, reason: 'checksum mismatch: the record was changed after it was written' };
  // The length reaches past the end. A crash cut the body short, unless the rest of the file is exactly the body
  // the checksum describes: then the length field is what was damaged.
  const restBody = await readAt(handle, rest - HEADER_BYTES, offset + HEADER_BYTES);
  if (verify(header, decoded, restBody))
    return {
      torn: false,
      reason: `the length field says ${decoded.bodyBytes} bytes but the record holds ${restBody.length}`,
    };
  return { torn: true };
}

/** Scans `path`, calling `onRecord` for every verified record in order, with the byte offset of its frame. */
export async function scanSegment(
  path: string,
  onRecord?: (record: WalRecord, offset: number) => void | Promise<void>,
): Promise<SegmentScan> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    let offset = 0;
    let records = 0;
    while (offset < size) {
      const frame = await frameAt(handle, offset, size);
      if (!frame) {
        const verdict = await classify(handle, offset, size);
        const intactAfter = await intactFramesAfter(handle, offset + 1, size);
        const end: SegmentEnd =
          verdict.torn && intactAfter === 0
            ? { kind: 'torn', offset, bytes: size - offset }
            : {
                kind: 'damaged',
                offset,
                reason: verdict.torn
                  ? `the length field says the record runs past the end of the file, yet intact records follow`
                  : verdict.reason,
                intactAfter,
              };
        return { records, goodBytes: offset, size, end };
      }
      if (onRecord)
        await onRecord({ kind: frame.decoded.kind, timeMs: frame.decoded.timeMs, body: frame.body }, offset);
      records++;
      offset = frame.end;
    }
    return { records, goodBytes: offset, size, end: { kind: 'clean' } };
  } finally {
    await handle.close();
  }
}
