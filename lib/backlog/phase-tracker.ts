// One VU's view of experiment 1's progress: the shared tracker (lib/phase-tracker.ts) on backlog's plan, its slots
// named by phase and consistency. Pure (the poller's fetch is injected), one instance per VU.
import type { MetadataPoller, MetadataReading } from '../metadata-poll';
import { PhaseTracker as Tracker } from '../phase-tracker';
import { backlogPlan, type Gates, namedSlot, type Schedule, type Slot } from './phases';

export interface TrackerUpdate {
  slot: Slot;
  /** The newest reading (undefined before the first successful poll). */
  reading: MetadataReading | undefined;
  /** True when `reading` was fetched by this update. */
  fresh: boolean;
}

export class PhaseTracker {
  private readonly tracker: Tracker;

  constructor(t0: number, schedule: Schedule, gates: Gates, poller: MetadataPoller) {
    this.tracker = new Tracker(t0, backlogPlan(gates), schedule, poller);
  }

  /** While a gate is awaited: when this VU gives the wait up (epoch ms); null otherwise. */
  waitDeadline(): number | null {
    return this.tracker.waitDeadline();
  }

  /** Advances to `now` (see lib/phase-tracker.ts for when it polls). */
  update(now: number, alwaysPoll: boolean): TrackerUpdate {
    const u = this.tracker.update(now, alwaysPoll);
    return { slot: namedSlot(u.slot), reading: u.reading, fresh: u.fresh };
  }
}
