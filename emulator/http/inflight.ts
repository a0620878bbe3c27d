// A budget for request-body bytes held in memory across concurrent requests (bodies as received plus what gzip
// inflates them to), so a burst of large or compressed bodies cannot take the process's memory. A body that would
// go over the budget gets 429 with a retry hint, which the official SDKs retry; a request alone is always let in,
// so the largest allowed write still goes through on an otherwise idle emulator.
import { tooManyRequests } from '../api-error';

/** How long a refused client should wait: about one large body's worth of work on this machine. */
const RETRY_AFTER_MS = 200;

/** One request's share of the budget. */
export interface BodyAllowance {
  /** Counts `bytes` more against the budget, or throws 429 (nothing is counted then). */
  reserve(bytes: number): void;
  /** Gives back `bytes` of what this request reserved (a buffer it let go early). */
  give(bytes: number): void;
  /** Gives back everything this request still holds. */
  close(): void;
}

export class InflightBudget {
  private used = 0;

  constructor(readonly limitBytes: number) {}

  /** Bytes held by all requests now. */
  get heldBytes(): number {
    return this.used;
  }

  open(): BodyAllowance {
    let held = 0;
    return {
      reserve: (bytes) => {
        if (this.used > held && this.used + bytes > this.limitBytes)
          throw tooManyRequests(
            `the emulator already holds ${mib(this.used)} of request bodies in flight and this body would pass ` +
              `its ${mib(this.limitBytes)} limit (--max-inflight-bytes); retry shortly, or send fewer large bodies at once`,
            RETRY_AFTER_MS,
          );
        this.used += bytes;
        held += bytes;
      },
      give: (bytes) => {
        const given = Math.min(bytes, held);
        this.used -= given;
        held -= given;
      },
      close: () => {
        this.used -= held;
        held = 0;
      },
    };
  }
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
