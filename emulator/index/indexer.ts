// The background indexer of one namespace: drains the unindexed backlog at the configured pace (bytes per second,
// or as fast as the vector engine goes), in batches, off the request path. Each batch extends the vector indexes
// (built in the engine's workers) and the attribute postings, then moves the index cursor; metadata reports the
// difference as index.unindexed_bytes.
//
//   credit += pace x elapsed (capped)      goal = cursor + credit      indexTo(goal)      credit -= goal - cursor

/** What the indexer drives (a Namespace). */
export interface Indexable {
  readonly headPos: number;
  readonly cursorPos: number;
  readonly deleted: boolean;
  indexTo(pos: number): Promise<void>;
}

export interface IndexerOptions {
  /** Logical bytes per second; Infinity = unpaced. */
  bytesPerSecond: number;
  /** The first this many bytes of the log are indexed unpaced (--index-burst). @default 0 */
  burstBytes?: number;
  /** Time between paced batches. @default 100 ms */
  intervalMs?: number;
  /** Reports a failed batch (the indexer retries after a pause). */
  onError?: (error: unknown) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export class Indexer {
  private running: Promise<void> | null = null;
  private stopped = false;
  private credit = 0;
  private lastTick = performance.now();
  /** Index up to here without pacing: the burst, and after a restart the work done before it. */
  private fastForwardTo = 0;
  private readonly intervalMs: number;
  private lastBatchMs = 0;

  constructor(
    private readonly target: Indexable,
    private readonly options: IndexerOptions,
  ) {
    this.intervalMs = options.intervalMs ?? 100;
    this.fastForwardTo = options.burstBytes ?? 0;
  }

  /** Something was written: make sure a drain is running. */
  kick(): void {
    if (this.stopped || this.running) return;
    this.lastTick = performance.now();
    this.credit = 0;
    this.running = this.loop().finally(() => {
      this.running = null;
      // A write that landed while the loop was finishing.
      if (!this.stopped && this.target.cursorPos < this.target.headPos) this.kick();
    });
  }

  /** The log position up to which indexing runs unpaced: the burst, or after a restart what was indexed before it. */
  get unpacedTo(): number {
    return this.fastForwardTo;
  }

  /** After a restart: re-index what was indexed before the crash immediately, then resume pacing. */
  fastForward(pos: number): void {
    this.fastForwardTo = Math.max(this.fastForwardTo, pos);
    this.kick();
  }

  /** Resolves once the backlog is empty (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  private nextGoal(): number | null {
    const { cursorPos, headPos } = this.target;
    if (this.fastForwardTo > cursorPos) return Math.min(this.fastForwardTo, headPos);
    const pace = this.options.bytesPerSecond;
    if (!Number.isFinite(pace)) return headPos;
    const now = performance.now();
    // Banked credit is capped so an idle period does not turn into one huge burst, but a slow batch (the engine
    // taking longer than a second) still earns enough to keep the configured pace.
    const cap = pace * Math.max(1, (2 * this.lastBatchMs) / 1000);
    this.credit = Math.min(this.credit + (pace * (now - this.lastTick)) / 1000, cap);
    this.lastTick = now;
    const goal = Math.min(headPos, cursorPos + Math.floor(this.credit));
    return goal > cursorPos ? goal : null;
  }

  private async loop(): Promise<void> {
    while (!this.stopped && !this.target.deleted && this.target.cursorPos < this.target.headPos) {
      const goal = this.nextGoal();
      if (goal === null) {
        await sleep(this.intervalMs);
        continue;
      }
      const before = this.target.cursorPos;
      const paced = goal > this.fastForwardTo;
      const started = performance.now();
      try {
        await this.target.indexTo(goal);
        this.lastBatchMs = performance.now() - started;
      } catch (error) {
        this.options.onError?.(error);
        await sleep(1000);
        continue;
      }
      if (paced && Number.isFinite(this.options.bytesPerSecond)) {
        this.credit = Math.max(0, this.credit - (this.target.cursorPos - before));
        await sleep(this.intervalMs);
      } else if (this.target.cursorPos < this.target.headPos) {
        // Unpaced: let requests in between batches.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
}
