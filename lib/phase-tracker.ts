// One VU's view of a gated phase machine (lib/phase-machine.ts) fed by its metadata poller. Pure (the poller's
// fetch is injected), one instance per VU.
import type { MetadataPoller, MetadataReading } from './metadata-poll';
import {
  advance,
  initialState,
  type MachineSlot,
  type MachineState,
  type PhasePlan,
  type Schedule,
  slotAt,
} from './phase-machine';

export interface TrackerUpdate {
  slot: MachineSlot;
  /** The newest reading (undefined before the first successful poll). */
  reading: MetadataReading | undefined;
  /** True when `reading` was fetched by this update. */
  fresh: boolean;
}

export class PhaseTracker {
  private state: MachineState;

  constructor(
    t0: number,
    private readonly plan: PhasePlan,
    private readonly schedule: Schedule,
    private readonly poller: MetadataPoller,
  ) {
    this.state = initialState(t0);
  }

  /** While a gate is awaited: when this VU gives the wait up (epoch ms); null otherwise. */
  waitDeadline(): number | null {
    const s = this.state;
    return s.start === null && s.phase < this.plan.phases ? s.waitStart + this.schedule.phaseTimeoutMs : null;
  }

  /**
   * Advances to `now`. Metadata is polled while a gate is awaited, or always with `alwaysPoll` (writers need the
   * backlog all the time); query VUs inside a cell skip the poll, keeping metadata traffic low.
   */
  update(now: number, alwaysPoll: boolean): TrackerUpdate {
    this.state = advance(this.plan, this.state, now, undefined, this.schedule);
    const waiting = slotAt(this.plan, this.state, now, this.schedule).stage === 'waiting';
    if (!waiting && !alwaysPoll)
      return { slot: slotAt(this.plan, this.state, now, this.schedule), reading: undefined, fresh: false };
    const { reading, fresh } = this.poller.current();
    if (fresh && reading) this.state = advance(this.plan, this.state, now, reading, this.schedule);
    return { slot: slotAt(this.plan, this.state, now, this.schedule), reading, fresh };
  }
}
