// How long requests are waiting behind work on the request thread, for load shedding. Under a CPU-bound overload
// (more queries than the thread can run) requests do not pile up in handlers, where --max-pending-requests would
// see them: they wait unread in the sockets while the thread works through the ones it already read, and each
// turn of the event loop reads every request that arrived meanwhile, whose work then runs in the next turns. A
// timer that fires late measures that wait: the thread was busy for the whole delay. So while the last tick came
// later than --max-queue-delay, or the thread has been busy that long since, new requests are refused with a cheap
// 429: the turns get short again, admitted work stays within about one turn's worth, and latency is back to
// normal within a turn or two once the load stops.
//
//   tick ─ read 40 requests ─ their work ─────────────── tick (late: shed) ─ read, all 429 ─ tick (on time) ─ ...

const TICK_MS = 10;

export class QueueDelay {
  private last = performance.now();
  /** How late the last tick came. */
  private late = 0;
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => {
      const now = performance.now();
      this.late = Math.max(0, now - this.last - TICK_MS);
      this.last = now;
    }, TICK_MS);
    this.timer.unref();
  }

  /** Milliseconds the request thread was last kept busy without a break: at the last tick, or since (0 when idle). */
  get ms(): number {
    return Math.max(this.late, performance.now() - this.last - TICK_MS);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
