// A seam in the on-disk log's file operations for tests of storage faults (a full disk, a file system gone
// read-only): `walFaults.before` runs before each operation and may throw the error the file system would, so a
// fault lands at an exact step (before a frame is written, after it is written but before it is durable, while a
// partial frame is cut back off) deterministically, without a real full or read-only file system. It does nothing
// unless a test sets it.

export type WalFileOp =
  /** Opening a segment for appends (a new namespace, a new segment). */
  | 'open'
  /** Writing a record's frame. */
  | 'write'
  /** Making a written frame durable (fdatasync); the frame is in the file when this fails. */
  | 'sync'
  /** Cutting a frame that did not become durable back off the log. */
  | 'truncate'
  /** Creating a namespace's log directory. */
  | 'mkdir'
  /** Saving the index cursor (indexed.json). */
  | 'cursor'
  /** Saving the namespace's settings (settings.json). */
  | 'settings';

export const walFaults: { before: (op: WalFileOp, path: string) => void } = { before: () => {} };

/** An error as node:fs reports it (code, errno, syscall), for tests to throw from the seam. */
export function fsError(
  code: 'ENOSPC' | 'EROFS' | 'EIO' | 'EDQUOT',
  syscall: string,
  path: string,
): NodeJS.ErrnoException {
  const text = {
    ENOSPC: 'no space left on device',
    EROFS: 'read-only file system',
    EIO: 'i/o error',
    EDQUOT: 'disk quota exceeded',
  }[code];
  const error: NodeJS.ErrnoException = new Error(`${code}: ${text}, ${syscall} '${path}'`);
  error.code = code;
  error.syscall = syscall;
  error.path = path;
  return error;
}
