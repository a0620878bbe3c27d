// How much of a namespace a query node has cached, as the service reports it in performance.cache_temperature and
// cache_hit_ratio. A cold namespace is loaded from object storage by a chain of sequential reads (`loadMs` in all);
// a query, hint_cache_warm or _debug/warm_cache starts the load and a query waits for what is left of it. Writes
// go through the cache (a namespace created by a write is hot); _debug/purge_cache and a restart leave it cold;
// `disable_cache` bypasses it: that query pays the whole load and changes nothing.
//
//   cold ──(query / hint / warm_cache)──> loading: 'warm', hit ratio = share of the load done ──(loadMs)──> hot

export type CacheTemperature = 'hot' | 'warm' | 'cold';

export interface CacheRead {
  temperature: CacheTemperature;
  /** Share of what the query reads that was already cached, 0 to 1. */
  hitRatio: number;
  /** How long the query waits for object storage before it can run. */
  waitMs: number;
}

const HOT: CacheRead = { temperature: 'hot', hitRatio: 1, waitMs: 0 };

export class NamespaceCache {
  private hot: boolean;
  /** When the running load started (null: none running). */
  private loadStarted: number | null = null;

  constructor(
    /** A whole load from object storage; 0 = always hot (no latency model). */
    private readonly loadMs: number,
    hot = true,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.hot = hot || loadMs <= 0;
  }

  /** False when there is no cache to model: everything is always in memory. */
  get modelled(): boolean {
    return this.loadMs > 0;
  }

  get temperature(): CacheTemperature {
    this.settle();
    if (this.hot) return 'hot';
    return this.loadStarted === null || this.now() === this.loadStarted ? 'cold' : 'warm';
  }

  /** Starts loading a cold namespace; nothing when it is hot or loading already. */
  warm(): void {
    this.settle();
    if (!this.hot && this.loadStarted === null) this.loadStarted = this.now();
  }

  /** Resolves once the namespace is hot (starting the load if needed). */
  async warmed(): Promise<void> {
    this.warm();
    for (let left = this.remainingMs(); left > 0; left = this.remainingMs()) await wait(left);
    this.settle();
  }

  /** Drops everything cached: the next query is cold. */
  purge(): void {
    if (!this.modelled) return;
    this.hot = false;
    this.loadStarted = null;
  }

  /** What a query finds, starting the load when the namespace is cold; `bypass` (disable_cache) reads around it. */
  read(bypass = false): CacheRead {
    if (!this.modelled) return HOT;
    if (bypass) return { temperature: 'cold', hitRatio: 0, waitMs: this.loadMs };
    this.warm();
    if (this.hot) return HOT;
    const left = this.remainingMs();
    const hitRatio = Math.floor((1 - left / this.loadMs) * 1000) / 1000;
    return { temperature: hitRatio === 0 ? 'cold' : 'warm', hitRatio, waitMs: left };
  }

  private remainingMs(): number {
    if (this.hot || this.loadStarted === null) return 0;
    return Math.max(0, this.loadStarted + this.loadMs - this.now());
  }

  private settle(): void {
    if (this.loadStarted !== null && this.now() - this.loadStarted >= this.loadMs) {
      this.hot = true;
      this.loadStarted = null;
    }
  }
}

/**
 * A timer standing for object-storage round trips: the emulator waits, it does not compute. Never shorter than
 * `ms` by the clock server timings are measured with: Node's timers run off a loop time taken up to a millisecond
 * earlier, so a bare setTimeout(200) was seen to end after 199.85 ms, and a modelled round trip is a floor.
 */
export function wait(ms: number): Promise<void> {
  if (!(ms > 0)) return Promise.resolve();
  const end = performance.now() + ms;
  return new Promise((resolve) => {
    const check = () => {
      const left = end - performance.now();
      if (left <= 0) resolve();
      else setTimeout(check, Math.ceil(left));
    };
    check();
  });
}
