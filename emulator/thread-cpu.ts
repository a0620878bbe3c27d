// CPU time of single threads of this process (Linux /proc), so a benchmark can tell which of the emulator's threads
// its CPU went to: the request thread, the engine's workers, or the rest (V8's GC helpers, libuv).
import { readFileSync, readlinkSync } from 'node:fs';

/** USER_HZ, the unit of the CPU fields in /proc/<pid>/stat: 100 on every Linux ABI Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * utime + stime (fields 14 and 15 of proc(5)) of one /proc stat line, in milliseconds. The command name (field 2)
 * may hold spaces and parentheses, so fields are counted from the last ')'.
 */
export function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The calling thread's kernel thread id, or null where /proc/thread-self does not exist (not Linux). */
export function osThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** CPU milliseconds thread `tid` of process `pid` has used so far, or null when /proc cannot tell. */
export function threadCpuMs(tid: number, pid = process.pid): number | null {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}
