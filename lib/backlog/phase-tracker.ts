// One VU's view of experiment 1's progress: the phase machine fed by its metadata poller. Pure (the poller's
// fetch is injected), one instance per VU.
import type { MetadataPoller, MetadataReading } from '../metadata-poll';
import {
  advance,
  type Gates,
  initialState,
  type MachineState,
  PHASES,
  type Schedule,
  type Slot,
  slotAt,
} from './phases';

export interface TrackerUpdate {
  slot: Slot;
  /** The newest reading (undefined before the first successful poll). */
  reading: MetadataReading | undefined;
  /** True when `reading` was fetched by this update. */
  fresh: boolean;
}

export class PhaseTracker {
  private state: MachineState;

  constructor(
    t0: number,
    private readonly schedule: Schedule,
    private readonly gates: Gates,
    private readonly poller: MetadataPoller,
  ) {
    this.state = initialState(t0);
  }

  /** While a gate is awaited: when this VU gives the wait up (epoch ms); null otherwise. */
  waitDeadline(): number | null {
    const s = this.state;
    return s.start === null && s.phase < PHASES.length ? s.waitStart + this.schedule.phaseTimeoutMs : null;
  }

  /**
   * Advances to `now`. Metadata is polled while a gate is awaited, or always with `alwaysPoll` (writers need the
   * backlog all the time); query VUs inside a cell skip the poll, keeping metadata traffic low.
   */
  update(now: number, alwaysPoll: boolean): TrackerUpdate {
    this.state = advance(this.state, now, undefined, this.schedule, this.gates);
    const waiting = slotAt(this.state, now, this.schedule).stage === 'waiting';
    if (!waiting && !alwaysPoll)
      return { slot: slotAt(this.state, now, this.schedule), reading: undefined, fresh: false };
    const { reading, fresh } = this.poller.current();
    if (fresh && reading) this.state = advance(this.state, now, reading, this.schedule, this.gates);
    return { slot: slotAt(this.state, now, this.schedule), reading, fresh };
  }
}
