// Per-namespace query concurrency: 16 slots; a kNN query takes 2 and an aggregation 4. A query that cannot get its
// slots waits in line; after 800 ms it gets 429 (docs/turbopuffer-api.md §3.5). First come, first served, so a large
// query is not starved by a stream of small ones.
import { tooManyRequests } from '../api-error';

interface Waiter {
  slots: number;
  grant: () => void;
  timer: NodeJS.Timeout;
}

export class QueryGate {
  private used = 0;
  private readonly waiters: Waiter[] = [];

  constructor(
    readonly slots = 16,
    readonly waitMs = 800,
  ) {}

  /** Resolves with a release function once `slots` are free; rejects with 429 after waitMs. */
  acquire(slots: number): Promise<() => void> {
    const need = Math.min(Math.max(1, slots), this.slots);
    if (this.waiters.length === 0 && this.used + need <= this.slots) {
      this.used += need;
      return Promise.resolve(this.releaser(need));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        slots: need,
        grant: () => {
          clearTimeout(waiter.timer);
          this.used += need;
          resolve(this.releaser(need));
        },
        timer: setTimeout(() => {
          const at = this.waiters.indexOf(waiter);
          if (at >= 0) this.waiters.splice(at, 1);
          this.drain();
          reject(
            tooManyRequests(
              `too many concurrent queries on this namespace (limit ${this.slots} slots; waited ${this.waitMs} ms)`,
              Math.round(this.waitMs / 4),
            ),
          );
        }, this.waitMs),
      };
      this.waiters.push(waiter);
    });
  }

  private releaser(slots: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= slots;
      this.drain();
    };
  }

  private drain(): void {
    while (this.waiters.length > 0 && this.used + this.waiters[0].slots <= this.slots) {
      const next = this.waiters.shift() as Waiter;
      next.grant();
    }
  }

  /** Slots in use (for tests). */
  get inUse(): number {
    return this.used;
  }
}
