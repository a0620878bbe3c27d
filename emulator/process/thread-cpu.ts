// CPU time and scheduling priority of single threads of this process (Linux /proc), so a benchmark can tell which
// of the emulator's threads its CPU went to (the request thread, the engine's workers, or the rest: V8's GC
// helpers, libuv), and background threads can run below the threads that answer queries.
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** USER_HZ, the unit of the CPU fields in /proc/<pid>/stat: 100 on every Linux ABI Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime (fields 14 and 15 of proc(5)) of one /proc stat line, in milliseconds. */
export function statCpuMs(stat: string): number {
  const fields = statFields(stat);
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The nice value (field 19 of proc(5)) of one /proc stat line. */
export function statNice(stat: string): number {
  return Number(statFields(stat)[16]);
}

/** Fields 3.. of a stat line (the command name, field 2, may hold spaces and parentheses: count from the last ')'). */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
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

/** Nice value of thread `tid` of this process, or null when /proc cannot tell. */
export function threadNice(tid: number): number | null {
  try {
    return statNice(readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Lowers one thread of this process to `nice` (Linux: setpriority on a thread id moves that thread only). Raising
 * a thread's nice value needs no privilege; returns false where it cannot be done (then the thread keeps its
 * priority, which only costs the isolation, never correctness).
 */
export function lowerThreadPriority(tid: number, nice: number): boolean {
  try {
    setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
