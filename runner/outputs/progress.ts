// Per-scenario progress lines while the test runs: redrawn in place every 100 ms on a TTY, a new block every
// second otherwise, plus a final render. Suppressed by --quiet.
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

function scenarioLine(p: ScenarioProgress, width: number, tty: boolean): string {
  const c = p.config;
  const total = regularDuration(c);
  const now = nowMs();
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
      ? `waiting ${fixedWidthTime(c.startTime - (now - p.startedAt), c.startTime)}`
      : cols.join(' ');
  return `${c.name.padEnd(width)} ${MARKS[p.state]} ${bar} ${status}`;
}

export class ProgressDisplay {
  private timer: NodeJS.Timeout | undefined;
  private lastLines = 0;
  private readonly started = nowMs();
  private readonly tty: boolean;

  constructor(
    private readonly scenarios: ScenarioProgress[],
    private readonly instance: Int32Array,
    private readonly out: NodeJS.WriteStream,
    private readonly enabled: boolean,
    private readonly maxDuration: number,
    private readonly plannedVUs: number,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  /** What the first line shows: VU initialisation, setup(), the run, teardown(). */
  phase: 'init' | 'setup' | 'running' | 'teardown' = 'init';

  render(): string[] {
    const active = Atomics.load(this.instance, IN_VUS_ACTIVE);
    const init = Atomics.load(this.instance, IN_VUS_INITIALIZED);
    const w = String(init).length;
    if (this.phase === 'init') {
      const fraction = this.plannedVUs > 0 ? Math.min(1, init / this.plannedVUs) : 1;
      const bar = this.tty
        ? `[${'='.repeat(Math.floor(fraction * 40)).padEnd(40, '-')}]`
        : `[${String(Math.floor(fraction * 100)).padStart(4)}% ]`;
      return [`Init ${bar} ${init}/${this.plannedVUs} VUs initialized`];
    }
    if (this.phase === 'setup') return ['setup()'];
    const elapsed = nowMs() - this.started;
    // k6 prints the run clock as m:ss.s ("0m05.0s") up to 10 minutes, wider beyond.
    const head = `running (${fixedWidthTime(elapsed, Math.max(60_000, Math.min(this.maxDuration, 599_999)))}), ${String(active).padStart(w, '0')}/${init} VUs, ${Atomics.load(this.instance, IN_COMPLETED)} complete and ${Atomics.load(this.instance, IN_INTERRUPTED)} interrupted iterations`;
    const width = Math.min(30, Math.max(...this.scenarios.map((s) => s.config.name.length)));
    const sorted = [...this.scenarios].sort(
      (a, b) => a.config.startTime - b.config.startTime || a.config.name.localeCompare(b.config.name),
    );
    const lines = [head, ...sorted.map((s) => scenarioLine(s, width, this.tty))];
    if (this.phase === 'teardown') lines.push('teardown()');
    return lines;
  }

  private draw(): void {
    const lines = this.render();
    if (this.tty) {
      if (this.lastLines > 0) this.out.write(`\x1b[${this.lastLines}A`);
      this.out.write(`${lines.map((l) => `\x1b[2K${l}`).join('\n')}\n`);
      this.lastLines = lines.length;
    } else this.out.write(`${lines.join('\n')}\n\n`);
  }

  start(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => this.draw(), this.tty ? 100 : 1000);
    this.timer.unref();
  }

  stop(): void {
    if (!this.enabled) return;
    if (this.timer) clearInterval(this.timer);
    // The final render shows the run (k6 ends with the scenario lines, not the teardown() line).
    if (this.phase !== 'init') this.phase = 'running';
    this.draw();
  }
}
