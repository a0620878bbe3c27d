// Group commit to object storage, as turbopuffer's architecture describes it: a namespace starts at most one log
// commit per interval, every write applied before a commit starts rides in it, and the commit is durable one PUT
// later; only then are its writes acknowledged and visible to queries. Timers only: waiting costs no CPU.
//
//   writes:   w1   w2 w3            w4
//   commits:  [--PUT--]            [--PUT--]          a commit starts >= interval after the previous one started
//             ^ start   ^ ack w1   ^ start (w2, w3, w4 ride together)
//
// Writes are numbered by their log sequence number (seq), in the order they were applied.

export interface GroupCommitTiming {
  /** Earliest gap between the starts of two commits. */
  intervalMs: number;
  /** How long a commit takes to be durable once started. */
  putMs: number;
}

interface Waiter {
  seq: number;
  resolve: () => void;
}

export class GroupCommit {
  /** Highest seq whose commit is durable. */
  private committed = 0;
  /** Highest seq applied and waiting for a commit. */
  private applied = 0;
  private lastStart = Number.NEGATIVE_INFINITY;
  private inFlight = false;
  private timer: NodeJS.Timeout | null = null;
  private waiters: Waiter[] = [];
  private closed = false;

  constructor(
    private readonly timing: GroupCommitTiming,
    /** Called once a commit is durable, with the highest seq it covers (before the writers hear of it). */
    private readonly onCommitted: (seq: number) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records already durable when this committer starts (recovery): they need no commit. */
  startAfter(seq: number): void {
    this.committed = Math.max(this.committed, seq);
    this.applied = Math.max(this.applied, seq);
  }

  /** Resolves once write `seq` (applied already) is in a durable commit. */
  commit(seq: number): Promise<void> {
    if (seq <= this.committed) return Promise.resolve();
    this.applied = Math.max(this.applied, seq);
    const done = new Promise<void>((resolve) => this.waiters.push({ seq, resolve }));
    this.schedule();
    return done;
  }

  /** Writes waiting for a commit (tests). */
  get pending(): number {
    return this.waiters.length;
  }

  /** Stops timing: writes still waiting are released at once (the namespace is closing; it answers them). */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.waiters) w.resolve();
    this.waiters = [];
  }

  private schedule(): void {
    if (this.closed || this.inFlight || this.timer || this.applied <= this.committed) return;
    const wait = Math.max(0, this.lastStart + this.timing.intervalMs - this.now());
    if (wait === 0) this.start();
    else this.timer = setTimeout(() => this.start(), wait);
  }

  private start(): void {
    this.timer = null;
    if (this.closed) return;
    this.inFlight = true;
    this.lastStart = this.now();
    const upTo = this.applied;
    const durable = () => {
      this.inFlight = false;
      if (this.closed) return;
      this.committed = upTo;
      this.onCommitted(upTo);
      const ready = this.waiters.filter((w) => w.seq <= upTo);
      this.waiters = this.waiters.filter((w) => w.seq > upTo);
      for (const w of ready) w.resolve();
      this.schedule();
    };
    if (this.timing.putMs > 0) setTimeout(durable, this.timing.putMs);
    else queueMicrotask(durable);
  }
}
