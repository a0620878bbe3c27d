// The experiments' own progress lines (console.log, so they read the same under bench and Grafana k6): one when
// something happens (a cell starts, a gate is awaited, a configuration is ingested) and otherwise one every 10 s,
// printed by the one VU that knows the state. The runner's progress shows requests and errors beside them.

/** A status line is printed at least this often while the state stays the same. */
const STATUS_INTERVAL_MS = 10_000;

/** Lines start with this, so a log can be searched for them. */
export const STATUS_PREFIX = 'progress: ';

export class StatusLines {
  private lastEvent: string | undefined;
  private lastAt = 0;

  constructor(
    private readonly print: (line: string) => void = (line) => console.log(line),
    private readonly intervalMs = STATUS_INTERVAL_MS,
  ) {}

  /** Prints `text()` when `event` differs from the last one printed or the interval has passed since. */
  offer(now: number, event: string, text: () => string): void {
    if (event === this.lastEvent && now - this.lastAt < this.intervalMs) return;
    this.lastEvent = event;
    this.lastAt = now;
    this.print(`${STATUS_PREFIX}${text()}`);
  }
}
