// The on-disk frame of one log record, and its checksum. A frame is a 24-byte header and the body:
//
//   0  u32  magic "TWAL"         8  u32  crc32 of bytes 12 .. end   16  f64  timeMs
//   4  u32  body length         12  u8   kind (1 write, 2 schema)   24  body ...
//
// A crash can leave the last frame short or half-written; readers detect that by length and checksum.
import * as zlib from 'node:zlib';
import type { WalRecordKind } from './wal';

export const HEADER_BYTES = 24;
export const MAGIC = 0x4c415754;
const KIND_CODES: Record<WalRecordKind, number> = { write: 1, schema: 2 };

// zlib.crc32 arrived in Node 20.15; older Node 20 releases get the table-driven version below.
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
let table: Uint32Array | null = null;

export function crc32(data: Uint8Array, value = 0): number {
  if (nativeCrc32) return nativeCrc32(data, value);
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = ~value >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return ~crc >>> 0;
}

/** The header for a body; the body itself is written after it as is (no copy). */
export function encodeHeader(kind: WalRecordKind, timeMs: number, body: Uint8Array): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(body.length, 4);
  header.writeUInt8(KIND_CODES[kind], 12);
  header.writeDoubleLE(timeMs, 16);
  header.writeUInt32LE(crc32(body, crc32(header.subarray(12, HEADER_BYTES))), 8);
  return header;
}

export interface DecodedHeader {
  kind: WalRecordKind;
  timeMs: number;
  bodyBytes: number;
  crc: number;
}

/** Reads a header, or null when the bytes are not one (torn or foreign). */
export function decodeHeader(header: Buffer): DecodedHeader | null {
  if (header.length < HEADER_BYTES || header.readUInt32LE(0) !== MAGIC) return null;
  const code = header.readUInt8(12);
  const kind = code === 1 ? 'write' : code === 2 ? 'schema' : null;
  if (!kind) return null;
  return {
    kind,
    timeMs: header.readDoubleLE(16),
    bodyBytes: header.readUInt32LE(4),
    crc: header.readUInt32LE(8),
  };
}

/** True when a body matches the checksum in its header. */
export function verify(header: Buffer, decoded: DecodedHeader, body: Buffer): boolean {
  return crc32(body, crc32(header.subarray(12, HEADER_BYTES))) === decoded.crc;
}
