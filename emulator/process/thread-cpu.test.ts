import { describe, expect, it } from 'vitest';
import { osThreadId, statCpuMs, statNice, threadCpuMs } from './thread-cpu';

describe('statCpuMs', () => {
  it('adds utime and stime (clock ticks of 10 ms), counting fields after the last parenthesis', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
    const stat = '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 1200 0 3 0 157 43 0 0 20 0 11 0 9001';
    expect(statCpuMs(stat)).toBe(2000);
  });

  it('reads the nice value from field 19', () => {
    // ... utime stime cutime cstime priority nice num_threads ...
    const stat = '4242 (node (x) y) S 1 4242 4242 0 -1 4194560 1200 0 3 0 157 43 0 0 39 19 11 0 9001';
    expect(statNice(stat)).toBe(19);
  });
});

describe.runIf(process.platform === 'linux')('osThreadId and threadCpuMs', () => {
  it('name this thread and read its CPU time; a thread that is not there reads as null', () => {
    const tid = osThreadId() as number;
    expect(Number.isInteger(tid) && tid > 0).toBe(true);
    expect(threadCpuMs(tid)).toBeGreaterThanOrEqual(0);
    expect(threadCpuMs(process.pid)).toBeGreaterThanOrEqual(0);
    expect(threadCpuMs(2 ** 30)).toBeNull();
  });
});
