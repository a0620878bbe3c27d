// Progress while the test runs. On a TTY, k6's block (a head line, one line per scenario) redrawn in place every
// 100 ms, with log lines printed above it. Otherwise one short line per event (init done, setup(), the scenarios
// running changed, teardown()) or every 10 s, where k6 prints the whole block every second: a log is read by a
// person afterwards, and a 5-minute run should not print a thousand lines. Both end with the full block.
// Suppressed by --quiet.
import {
  IN_COMPLETED,
  IN_INTERRUPTED,
  IN_VUS_ACTIVE,
  IN_VUS_INITIALIZED,
  nowMs,
  SC_BUSY,
  SC_COMPLETED,
  SC_NEXT_ITER,
} from '../control-block';
import type { ScenarioProgress } from '../engine/scenario-run';
import { regularDuration } from '../executors/index';

/** Fixed-width elapsed time: "5.0s" (total < 10s), "05.0s" (< 1m), "0m05.0s" (< 10m), "00m05.0s" (< 1h), hours. */
export function fixedWidthTime(ms: number, totalMs: number): string {
  const s = Math.max(0, ms) / 1000;
  const sec = (s % 60).toFixed(1);
  if (totalMs < 10_000) return `${sec}s`;
  if (totalMs < 60_000) return `${sec.padStart(4, '0')}s`;
  const m = Math.floor(s / 60) % 60;
  if (totalMs < 600_000) return `${m}m${sec.padStart(4, '0')}s`;
  if (totalMs < 3_600_000) return `${String(m).padStart(2, '0')}m${sec.padStart(4, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(m).padStart(2, '0')}m${sec.padStart(4, '0')}s`;
}

const MARKS: Record<ScenarioProgress['state'], string> = {
  waiting: '•',
  running: ' ',
  stopping: '↓',
  done: '✓',
  interrupted: '✗',
};

/** The run's request counts so far (http_reqs and the failed share of http_req_failed). */
export interface RequestCounts {
  requests: number;
  failed: number;
}

export type RunPhase = 'init' | 'setup' | 'running' | 'teardown';

/** A non-TTY line is printed at least this often while nothing else happens. */
const LINE_INTERVAL_MS = 10_000;

function scenarioLine(
  p: ScenarioProgress,
  width: number,
  tty: boolean,
  now: number,
  testStart: number,
): string {
  const c = p.config;
  const total = regularDuration(c);
  const elapsed = p.state === 'waiting' ? 0 : Math.min(total, now - p.startedAt);
  let fraction = total > 0 ? elapsed / total : 0;
  const done = Atomics.load(p.block, SC_COMPLETED);
  const cols: string[] = [];
  switch (c.executor) {
    case 'shared-iterations':
      fraction = Math.max(fraction, Math.min(1, Atomics.load(p.block, SC_NEXT_ITER) / c.iterations));
      cols.push(
        `${c.vus} VUs`,
        `${fixedWidthTime(elapsed, total)}/${fixedWidthTime(total, total)}`,
        `${done}/${c.iterations} shared iters`,
      );
      break;
    case 'per-vu-iterations':
      cols.push(
        `${c.vus} VUs`,
        `${fixedWidthTime(elapsed, total)}/${fixedWidthTime(total, total)}`,
        `${done}/${c.vus * c.iterations} iters, ${c.iterations} per VU`,
      );
      break;
    case 'constant-vus':
    case 'ramping-vus':
      cols.push(
        c.executor === 'constant-vus'
          ? `${c.vus} VUs`
          : `${p.vus}/${Math.max(c.startVUs, ...c.stages.map((s) => s.target))} VUs`,
        `${fixedWidthTime(elapsed, total)}/${fixedWidthTime(total, total)}`,
      );
      break;
    default: {
      const rate = c.executor === 'constant-arrival-rate' ? (c.rate * 1000) / c.timeUnit : 0;
      cols.push(
        `${Atomics.load(p.block, SC_BUSY)}/${p.vus} VUs`,
        `${fixedWidthTime(elapsed, total)}/${fixedWidthTime(total, total)}`,
      );
      if (c.executor === 'constant-arrival-rate') cols.push(`${rate.toFixed(2)} iters/s`);
    }
  }
  if (p.state === 'done') fraction = 1;
  const pct = Math.floor(fraction * 100);
  const bar = tty
    ? `[${'='.repeat(Math.max(0, Math.floor(fraction * 40) - 1))}${fraction >= 1 ? '=' : '>'}${'-'.repeat(Math.max(0, 40 - Math.max(1, Math.floor(fraction * 40))))}]`
    : `[${String(pct).padStart(4)}% ]`;
  const status =
    p.state === 'waiting'
      ? `waiting ${fixedWidthTime(c.startTime - (now - testStart), c.startTime)}`
      : cols.join(' ');
  return `${c.name.padEnd(width)} ${MARKS[p.state]} ${bar} ${status}`;
}

/** ", 660 requests (50 failed)" once a request was made; k6's head line has no such part. */
function requestsPart(counts: RequestCounts | undefined): string {
  if (!counts || counts.requests === 0) return '';
  return `, ${counts.requests} requests (${counts.failed} failed)`;
}

export interface ProgressOptions {
  scenarios: ScenarioProgress[];
  instance: Int32Array;
  /** rows/columns: a terminal's size; a live frame is kept within it so it can be redrawn in place. */
  out: NodeJS.WritableStream & { isTTY?: boolean; rows?: number; columns?: number };
  enabled: boolean;
  maxDuration: number;
  plannedVUs: number;
  /** The run's request counts so far; none: the head line shows iterations only. */
  counts?: () => RequestCounts;
  /** Epoch ms (tests pass a fixed clock). */
  now?: () => number;
}

export class ProgressDisplay {
  private timer: NodeJS.Timeout | undefined;
  private lastLines = 0;
  private readonly now: () => number;
  private readonly started: number;
  private readonly tty: boolean;
  private phaseValue: RunPhase = 'init';
  private phaseStarted: number;
  /** When the scenarios' clock started (their startTime counts from it). */
  private testStart: number;
  /** Non-TTY: what the last line said happened, and when it was printed. */
  private lastEvent = '';
  private lastLineAt = 0;
  /** The scenarios running at the last look that found any. */
  private runningKey = '';

  constructor(private readonly o: ProgressOptions) {
    this.now = o.now ?? nowMs;
    this.started = this.now();
    this.phaseStarted = this.started;
    this.testStart = this.started;
    this.tty = Boolean(o.out.isTTY);
  }

  /** What the display shows: VU initialisation, setup(), the run, teardown(). */
  get phase(): RunPhase {
    return this.phaseValue;
  }

  set phase(phase: RunPhase) {
    if (phase === this.phaseValue) return;
    this.phaseValue = phase;
    this.phaseStarted = this.now();
    // Off a TTY the next tick (within a second) prints the change, once the scenarios have started.
    if (phase === 'running') this.testStart = this.phaseStarted;
  }

  private sorted(): ScenarioProgress[] {
    return [...this.o.scenarios].sort(
      (a, b) => a.config.startTime - b.config.startTime || a.config.name.localeCompare(b.config.name),
    );
  }

  private initLine(): { text: string; fraction: number; init: number } {
    const init = Atomics.load(this.o.instance, IN_VUS_INITIALIZED);
    const fraction = this.o.plannedVUs > 0 ? Math.min(1, init / this.o.plannedVUs) : 1;
    return { text: `${init}/${this.o.plannedVUs} VUs initialized`, fraction, init };
  }

  private head(now: number): string {
    const active = Atomics.load(this.o.instance, IN_VUS_ACTIVE);
    const init = Atomics.load(this.o.instance, IN_VUS_INITIALIZED);
    const w = String(init).length;
    // k6 prints the run clock as m:ss.s ("0m05.0s") up to 10 minutes, wider beyond.
    const clock = fixedWidthTime(now - this.started, Math.max(60_000, Math.min(this.o.maxDuration, 599_999)));
    return `running (${clock}), ${String(active).padStart(w, '0')}/${init} VUs, ${Atomics.load(this.o.instance, IN_COMPLETED)} complete and ${Atomics.load(this.o.instance, IN_INTERRUPTED)} interrupted iterations${requestsPart(this.o.counts?.())}`;
  }

  /**
   * The TTY frame (and every display's final render): k6's block. A live frame on a terminal keeps within its
   * height and width (a taller block cannot be moved back over, and a wrapped line counts twice): the scenarios
   * running and the next to start are shown, the rest counted.
   */
  render(live = false): string[] {
    const lines = this.block();
    const rows = live ? this.o.out.rows : undefined;
    const columns = live ? this.o.out.columns : undefined;
    const fitted = rows && lines.length > rows - 1 ? this.fitted(lines, rows - 1) : lines;
    return columns ? fitted.map((l) => (l.length < columns ? l : `${l.slice(0, columns - 2)}…`)) : fitted;
  }

  private fitted(lines: string[], room: number): string[] {
    if (this.phase === 'init' || this.phase === 'setup') return lines;
    const sorted = this.sorted();
    const scenarioLines = lines.slice(1, 1 + sorted.length);
    const extra = lines.slice(1 + sorted.length);
    const finished = (i: number) => sorted[i].state === 'done' || sorted[i].state === 'interrupted';
    const done = sorted.filter((_, i) => finished(i)).length;
    // The head, the summary of those done, the shown scenarios, the count of the rest, teardown().
    const slots = Math.max(1, room - 3 - extra.length);
    const shown: number[] = [];
    for (const i of sorted.keys())
      if (!finished(i) && sorted[i].state !== 'waiting' && shown.length < slots) shown.push(i);
    for (const i of sorted.keys()) if (sorted[i].state === 'waiting' && shown.length < slots) shown.push(i);
    shown.sort((a, b) => a - b);
    const hidden = sorted.length - done - shown.length;
    return [
      lines[0],
      ...(done > 0 ? [`✓ ${done} of ${sorted.length} scenarios done`] : []),
      ...shown.map((i) => scenarioLines[i]),
      ...(hidden > 0 ? [`• ${hidden} more to run`] : []),
      ...extra,
    ];
  }

  private block(): string[] {
    const now = this.now();
    if (this.phase === 'init') {
      const { text, fraction } = this.initLine();
      const bar = this.tty
        ? `[${'='.repeat(Math.floor(fraction * 40)).padEnd(40, '-')}]`
        : `[${String(Math.floor(fraction * 100)).padStart(4)}% ]`;
      return [`Init ${bar} ${text}`];
    }
    if (this.phase === 'setup') return ['setup()'];
    const width = Math.min(30, Math.max(...this.o.scenarios.map((s) => s.config.name.length)));
    const lines = [
      this.head(now),
      ...this.sorted().map((s) => scenarioLine(s, width, this.tty, now, this.testStart)),
    ];
    if (this.phase === 'teardown') lines.push('teardown()');
    return lines;
  }

  /**
   * The non-TTY line: what happens now, in one line. `event` is what changed since the last line (the phase, the
   * scenarios running); a line is due when it differs or LINE_INTERVAL_MS passed.
   */
  line(): { event: string; text: string } {
    const now = this.now();
    const inPhase = fixedWidthTime(now - this.phaseStarted, Math.max(60_000, now - this.phaseStarted));
    switch (this.phase) {
      case 'init': {
        const { text, init } = this.initLine();
        return { event: `init ${init === this.o.plannedVUs}`, text: `init: ${text}` };
      }
      case 'setup':
        return { event: 'setup', text: `setup() running for ${inPhase}` };
      case 'teardown':
        return { event: 'teardown', text: `teardown() running for ${inPhase}` };
      default: {
        const running = this.sorted().filter((s) => s.state === 'running' || s.state === 'stopping');
        const parts = running.map((s) => {
          const total = regularDuration(s.config);
          const elapsed = Math.min(total, now - s.startedAt);
          const mark = s.state === 'stopping' ? ' (stopping)' : '';
          return `${s.config.name} ${fixedWidthTime(elapsed, total)}/${fixedWidthTime(total, total)}${mark}`;
        });
        // A scenario starting is an event; one ending is not (the next start or the next 10 s says so), so a
        // run of many short scenarios one after another prints one line for each.
        if (running.length > 0) this.runningKey = running.map((s) => s.config.name).join(',');
        return {
          event: `running ${this.runningKey}`,
          text: `${this.head(now)}${parts.length > 0 ? `; ${parts.join(', ')}` : ''}`,
        };
      }
    }
  }

  /** One second of the non-TTY display: prints the line when it is due. */
  tick(): void {
    const { event, text } = this.line();
    const now = this.now();
    if (event === this.lastEvent && now - this.lastLineAt < LINE_INTERVAL_MS) return;
    this.lastEvent = event;
    this.lastLineAt = now;
    this.o.out.write(`${text}\n`);
  }

  private draw(live = true): void {
    const lines = this.render(this.tty && live);
    if (this.tty) {
      if (this.lastLines > 0) this.o.out.write(`\x1b[${this.lastLines}A`);
      this.o.out.write(`${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
      this.lastLines = lines.length;
    } else this.o.out.write(`${lines.join('\n')}\n\n`);
  }

  /**
   * Runs `write` (a log line) so that it lands above the TTY block: the block is cleared, the line written, the
   * block drawn again below it. Off a TTY the line is just written.
   */
  above(write: () => void): void {
    if (!this.tty || !this.timer || this.lastLines === 0) {
      write();
      return;
    }
    // Line by line: clearing to the end of the screen from its top would push the screen into tmux's history.
    const n = this.lastLines;
    this.o.out.write(`\x1b[${n}A${'\x1b[2K\n'.repeat(n)}\x1b[${n}A`);
    this.lastLines = 0;
    write();
    this.draw();
  }

  start(): void {
    if (!this.o.enabled) return;
    this.timer = this.tty ? setInterval(() => this.draw(), 100) : setInterval(() => this.tick(), 1000);
    this.timer.unref();
    if (!this.tty) this.tick();
  }

  stop(): void {
    if (!this.o.enabled) return;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    // The final render shows the run (k6 ends with the scenario lines, not the teardown() line).
    if (this.phase !== 'init') this.phaseValue = 'running';
    if (!this.tty) this.o.out.write('\n');
    this.draw(false);
  }
}
