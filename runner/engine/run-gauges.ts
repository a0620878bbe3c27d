// The run's own samples, taken every second while it runs: vus, vus_max and the event-loop lag of each thread
// (bench_event_loop_lag) of this thread (thread:main), of each HTTP I/O worker (thread:http) and of each VU host thread
// (thread:vu-host).
import { nowMs } from '../control-block';
import type { HttpIoPool } from '../http/io-pool';
import type { Aggregator } from '../metrics/aggregator';
import { LoopLagProbe } from '../metrics/loop-lag';
import type { VuPool } from './vu-pool';

export interface RunGaugesInput {
  aggregator: Aggregator;
  runTags: Record<string, string>;
  http: HttpIoPool;
  pool: VuPool;
  /** VU host threads (`--vu-threads`), 0 when VUs have a thread each: how their lag is tagged. */
  vuThreads: number;
  /** The active and initialised VUs now. */
  vus(): { active: number; initialized: number };
  /** Samples from the past (bench merge): the run adds none of its own. */
  replay: boolean;
}

export class RunGauges {
  private readonly loopLag = new LoopLagProbe();
  private readonly mainLagTags: Record<string, string>;
  private readonly ioLagTags: Array<Record<string, string>>;
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly o: RunGaugesInput) {
    this.mainLagTags = { ...o.runTags, thread: 'main' };
    this.ioLagTags = Array.from({ length: o.http.size }, (_, i) => ({
      ...o.runTags,
      thread: o.http.size === 1 ? 'http' : `http-${i + 1}`,
    }));
  }

  /**
   * Before the first scenario starts and after the last one ended only vus_max is sampled (`withVus` false), so `vus`
   * reads like k6's (e.g. "1 min=1 max=1" for a one-VU test rather than a 0 from before or after the run).
   */
  sample(withVus = true): void {
    const { aggregator, runTags, http, pool, replay } = this.o;
    if (replay) return;
    const time = nowMs();
    const vus = this.o.vus();
    if (withVus) aggregator.addLocal({ metric: 'vus', time, value: vus.active, tags: runTags });
    aggregator.addLocal({ metric: 'vus_max', time, value: vus.initialized, tags: runTags });
    aggregator.addLocal({
      metric: 'bench_event_loop_lag',
      time,
      value: this.loopLag.take(),
      tags: this.mainLagTags,
    });
    const ioLag = http.takeLoopLag();
    for (let i = 0; i < ioLag.length; i++)
      if (!Number.isNaN(ioLag[i]))
        aggregator.addLocal({
          metric: 'bench_event_loop_lag',
          time,
          value: ioLag[i],
          tags: this.ioLagTags[i],
        });
    const hostLag = pool.takeHostLoopLag();
    for (let i = 0; i < hostLag.length; i++) {
      const thread = this.o.vuThreads === 1 ? 'vu-host' : `vu-host-${i + 1}`;
      aggregator.addLocal({
        metric: 'bench_event_loop_lag',
        time,
        value: hostLag[i],
        tags: { ...runTags, thread },
      });
    }
  }

  /** Starts sampling every second, once the VUs are initialised. */
  start(): void {
    // Starting the VU threads keeps this thread busy for a while: that is start-up, not lag under load.
    this.loopLag.take();
    this.o.http.takeLoopLag();
    this.o.pool.takeHostLoopLag();
    this.sample(false);
    this.ticker = setInterval(() => this.sample(), 1000);
  }

  /** Takes the last sample (after the scenarios: no `vus`) and stops. */
  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.sample(false);
    this.loopLag.stop();
  }
}
