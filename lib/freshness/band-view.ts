// A VU's band tracker for experiment 3 (the shared tracker on the band plan) and the `band` tag of a moment. k6-free:
// the metadata fetch is injected.
import type { MetadataFetch } from '../metadata-poll';
import { MetadataPoller } from '../metadata-poll';
import type { MachineSlot } from '../phase-machine';
import { TICK_MS } from '../phase-machine';
import { PhaseTracker } from '../phase-tracker';
import { BANDS, type BandTag, bandPlan, bandSchedule } from './bands';
import type { FreshnessConfig } from './config';

export function bandTracker(config: FreshnessConfig, t0: number, fetch: MetadataFetch): PhaseTracker {
  return new PhaseTracker(t0, bandPlan(config), bandSchedule(config), new MetadataPoller(fetch, TICK_MS));
}

/** The band tag of a slot: the band's name inside its measured window, `transition` anywhere else. */
export function bandTag(slot: MachineSlot): BandTag {
  return slot.stage === 'measuring' && slot.phase !== null ? BANDS[slot.phase] : 'transition';
}
