import { describe, expect, it, vi } from 'vitest';
import {
  IN_COMPLETED,
  IN_INTERRUPTED,
  IN_VUS_ACTIVE,
  IN_VUS_INITIALIZED,
  INSTANCE_WORDS,
  newInt32Block,
  SC_BUSY,
} from '../control-block';
import { newProgress } from '../engine/scenario-run';
import { parseScenario } from '../executors/index';
import { fixedWidthTime, ProgressDisplay, type RequestCounts } from './progress';

describe('fixedWidthTime', () => {
  it.each([
    [5_000, 9_000, '5.0s'],
    [5_000, 30_000, '05.0s'],
    [5_000, 90_000, '0m05.0s'],
    [65_000, 900_000, '01m05.0s'],
    [3_725_000, 7_200_000, '1h02m05.0s'],
  ])('prints %d ms of %d as %s', (ms, total, text) => {
    expect(fixedWidthTime(ms, total)).toBe(text);
  });
});

function scenario(name: string, raw: Record<string, unknown>) {
  const problems: string[] = [];
  const config = parseScenario(name, raw, problems);
  if (!config) throw new Error(problems.join('; '));
  return newProgress(config);
}

/** Experiment 1's two scenarios at the smoke profile's size, a fixed clock and a terminal that records. */
function fixture(tty: boolean) {
  let now = 1_000_000;
  const written: string[] = [];
  const queries = scenario('queries', {
    executor: 'constant-arrival-rate',
    rate: 10,
    timeUnit: '1s',
    duration: '72s',
    preAllocatedVUs: 10,
    exec: 'query',
  });
  const writer = scenario('writer', { executor: 'constant-vus', vus: 1, duration: '72s', exec: 'write' });
  const instance = newInt32Block(INSTANCE_WORDS);
  const counts: RequestCounts = { requests: 0, failed: 0 };
  const display = new ProgressDisplay({
    scenarios: [queries, writer],
    instance,
    out: { isTTY: tty, write: (s: string) => written.push(s) > 0 } as unknown as NodeJS.WritableStream,
    enabled: true,
    maxDuration: 82_000,
    plannedVUs: 11,
    counts: () => counts,
    now: () => now,
  });
  return {
    display,
    written,
    counts,
    instance,
    queries,
    writer,
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}

describe('ProgressDisplay', () => {
  it('draws the TTY frame of a running experiment: the head line with requests, then one bar per scenario', () => {
    const f = fixture(true);
    f.display.phase = 'setup';
    f.advance(5_000);
    f.display.phase = 'running';
    for (const s of [f.queries, f.writer]) {
      s.state = 'running';
      s.startedAt = f.now();
      s.vus = s === f.queries ? 10 : 1;
    }
    Atomics.store(f.queries.block, SC_BUSY, 2);
    Atomics.store(f.instance, IN_VUS_INITIALIZED, 11);
    Atomics.store(f.instance, IN_VUS_ACTIVE, 3);
    Atomics.store(f.instance, IN_COMPLETED, 217);
    Atomics.store(f.instance, IN_INTERRUPTED, 0);
    f.counts.requests = 280;
    f.counts.failed = 1;
    f.advance(27_000);
    expect(f.display.render()).toEqual([
      'running (0m32.0s), 03/11 VUs, 217 complete and 0 interrupted iterations, 280 requests (1 failed)',
      'queries   [==============>-------------------------] 2/10 VUs 0m27.0s/1m12.0s 10.00 iters/s',
      'writer    [==============>-------------------------] 1 VUs 0m27.0s/1m12.0s',
    ]);
  });

  it('writes log lines above the TTY block and draws the block again below them', () => {
    vi.useFakeTimers();
    try {
      const f = fixture(true);
      f.display.phase = 'setup';
      f.display.start();
      vi.advanceTimersByTime(100);
      f.display.above(() => f.written.push('INFO[0002] seeding 1000 rows\n'));
      f.display.stop();
      expect(f.written).toEqual([
        '\x1b[2Ksetup()\n',
        '\x1b[1A\x1b[2K\n\x1b[1A',
        'INFO[0002] seeding 1000 rows\n',
        '\x1b[2Ksetup()\n',
        '\x1b[1A',
        '\x1b[2Krunning (0m00.0s), 0/0 VUs, 0 complete and 0 interrupted iterations\n\x1b[2Kqueries • [>---------------------------------------] waiting 0.0s\n\x1b[2Kwriter  • [>---------------------------------------] waiting 0.0s\n',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('prints one short line off a TTY per event, and otherwise every 10 s', () => {
    const f = fixture(false);
    f.display.start();
    Atomics.store(f.instance, IN_VUS_INITIALIZED, 11);
    f.advance(1_000);
    f.display.tick();
    f.display.phase = 'setup';
    for (let i = 0; i < 15; i++) {
      f.advance(1_000);
      f.display.tick();
    }
    f.display.phase = 'running';
    f.advance(200);
    f.display.tick();
    f.queries.state = 'running';
    f.writer.state = 'running';
    f.queries.startedAt = f.now();
    f.writer.startedAt = f.now();
    Atomics.store(f.instance, IN_VUS_ACTIVE, 11);
    for (let i = 0; i < 25; i++) {
      f.advance(1_000);
      Atomics.add(f.instance, IN_COMPLETED, 11);
      f.counts.requests += 12;
      f.display.tick();
    }
    f.queries.state = 'done';
    f.advance(1_000);
    f.display.tick();
    f.display.phase = 'teardown';
    f.advance(1_000);
    f.display.tick();
    expect(f.written.join('')).toBe(
      [
        'init: 0/11 VUs initialized',
        'init: 11/11 VUs initialized',
        'setup() running for 0m01.0s',
        'setup() running for 0m11.0s',
        'running (0m16.2s), 00/11 VUs, 0 complete and 0 interrupted iterations',
        'running (0m17.2s), 11/11 VUs, 11 complete and 0 interrupted iterations, 12 requests (0 failed); queries 0m01.0s/1m12.0s, writer 0m01.0s/1m12.0s',
        'running (0m27.2s), 11/11 VUs, 121 complete and 0 interrupted iterations, 132 requests (0 failed); queries 0m11.0s/1m12.0s, writer 0m11.0s/1m12.0s',
        'running (0m37.2s), 11/11 VUs, 231 complete and 0 interrupted iterations, 252 requests (0 failed); queries 0m21.0s/1m12.0s, writer 0m21.0s/1m12.0s',
        'running (0m42.2s), 11/11 VUs, 275 complete and 0 interrupted iterations, 300 requests (0 failed); writer 0m26.0s/1m12.0s',
        'teardown() running for 0m01.0s',
        '',
      ].join('\n'),
    );
  });

  it('keeps a live TTY frame within the terminal: the scenarios running and next, the rest counted, lines cut', () => {
    let now = 1_000_000;
    const windows = Array.from({ length: 40 }, (_, i) =>
      scenario(`window_${String(i + 1).padStart(2, '0')}_strong`, {
        executor: 'constant-arrival-rate',
        rate: 10,
        timeUnit: '1s',
        duration: '10s',
        preAllocatedVUs: 10,
        startTime: `${i * 11}s`,
      }),
    );
    const display = new ProgressDisplay({
      scenarios: windows,
      instance: newInt32Block(INSTANCE_WORDS),
      out: { isTTY: true, rows: 8, columns: 70, write: () => true } as unknown as NodeJS.WritableStream,
      enabled: true,
      maxDuration: 440_000,
      plannedVUs: 10,
      now: () => now,
    });
    display.phase = 'running';
    now += 25_000;
    windows.forEach((w, i) => {
      if (i < 2) w.state = 'done';
      if (i === 2) {
        w.state = 'running';
        w.startedAt = now - 3_000;
      }
    });
    expect(display.render(true)).toEqual([
      'running (0m25.0s), 0/0 VUs, 0 complete and 0 interrupted iterations',
      '✓ 2 of 40 scenarios done',
      'window_03_strong   [===========>----------------------------] 0/0 VU…',
      'window_04_strong • [>---------------------------------------] waitin…',
      'window_05_strong • [>---------------------------------------] waitin…',
      'window_06_strong • [>---------------------------------------] waitin…',
      '• 34 more to run',
    ]);
    expect(display.render(false)).toHaveLength(41);
  });
});
