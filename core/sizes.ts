// Byte sizes as people write them ("1.75GiB", "512MiB", "2GB", "4096") <-> bytes. Pure: shared by k6 scripts and Node code.

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

const SIZE_PATTERN = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*([a-zA-Z]*)\s*$/;

/**
 * Parses a size. A bare number is bytes; units are B, KB/MB/GB/TB (powers of 1000) and KiB/MiB/GiB/TiB
 * (powers of 1024), case-insensitive. Fractional results are rounded down to whole bytes.
 * Throws an Error naming the input and the accepted forms.
 */
export function parseSize(input: string | number): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0)
      throw new Error(`invalid size ${input}: expected a non-negative number of bytes`);
    return Math.floor(input);
  }
  const match = SIZE_PATTERN.exec(input);
  const factor = match ? UNITS[(match[2] || 'b').toLowerCase()] : undefined;
  if (!match || factor === undefined) {
    throw new Error(
      `invalid size "${input}": use a number of bytes or a number with a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB), e.g. "512MiB" or "1.75GiB"`,
    );
  }
  return Math.floor(Number(match[1]) * factor);
}

/** Formats bytes with binary units and at most two decimals: 1879048192 -> "1.75 GiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 ? String(value) : String(Math.round(value * 100) / 100);
  return `${text} ${units[unit]}`;
}
