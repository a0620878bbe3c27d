// The bulk writers' iteration: wait until the band machine wants a write, then write one batch of seeded rows (a
// band's batch size: ./bands.ts), timing its acknowledgement; record the backlog at each band's window edges and
// every poll in the time series. Ids come from exec.scenario.iterationInTest (unique across instances), strided by
// WRITE_BATCH_ROWS; each writer stops at its share of MAX_TOTAL_ROWS.
import { sleep } from 'k6';
import exec from 'k6/execution';
import type { MetadataReading } from '../metadata-poll';
import type { MachineSlot } from '../phase-machine';
import type { PhaseTracker } from '../phase-tracker';
import { recordPoll } from '../series-metrics';
import { StatusLines } from '../status-lines';
import { type SeriesClock, seriesClock } from '../time-series';
import { type TurbopufferClient, upsertBody } from '../turbopuffer-client';
import { rowBytes } from '../vectors';
import { bandTag, bandTracker } from './band-view';
import {
  BANDS,
  bandGates,
  bandsDurationMs,
  batchRowsByBand,
  scenariosDurationMs,
  writerAction,
} from './bands';
import type { FreshnessConfig } from './config';
import {
  rowsWritten,
  snapshotTime,
  snapshotUnindexed,
  windowEnd,
  windowStart,
  writeAck,
  writeErrors,
} from './metrics';
import { freshnessProgressLine, progressEvent } from './progress';
import type { SetupData } from './setup-data';

/** How often a waiting writer looks again (metadata itself refreshes once a second). */
const WAIT_S = 0.2;

interface WriterVu {
  tracker: PhaseTracker;
  /** Bytes this VU had acknowledged since its newest reading: the backlog estimate is reading + this. */
  sinceReading: number;
  started: Set<number>;
  written: number;
  clock: SeriesClock;
  /** Progress lines: only on the VU that ran the scenario's first iteration (one in the whole test). */
  status: StatusLines | undefined;
}

export function makeWriter(config: FreshnessConfig, client: TurbopufferClient): (data: SetupData) => void {
  const gates = bandGates(config);
  const batches = batchRowsByBand(config);
  let vu: WriterVu | undefined;
  return (data) => {
    vu ??= {
      tracker: bandTracker(config, data.t0, () => client.metadata(data.namespace, { role: 'writer' })),
      sinceReading: 0,
      started: new Set(),
      written: 0,
      clock: seriesClock(data.t0, scenariosDurationMs(config)),
      status: exec.scenario.iterationInTest === 0 ? new StatusLines() : undefined,
    };
    const state = vu;
    const firstId = config.seedRows + exec.scenario.iterationInTest * config.writeBatchRows;
    const deadline = data.t0 + bandsDurationMs(config);
    while (Date.now() < deadline) {
      const update = state.tracker.update(Date.now(), true);
      if (update.fresh && update.reading) {
        state.sinceReading = 0;
        recordPoll(state.clock, update.reading);
        recordSnapshots(state, update.slot, update.reading);
      }
      state.status?.offer(Date.now(), progressEvent(update.slot), () =>
        freshnessProgressLine({
          slot: update.slot,
          now: Date.now(),
          unindexedBytes: update.reading?.unindexedBytes,
          gates,
          waitDeadline: state.tracker.waitDeadline(),
          rowsWritten: state.written,
        }),
      );
      const band = update.slot.stage === 'done' ? null : update.slot.phase;
      const rows = band === null ? 0 : batches[band];
      const estimate = (update.reading?.unindexedBytes ?? Number.POSITIVE_INFINITY) + state.sinceReading;
      const action = writerAction(band, estimate, rows * rowBytes(config.dims), gates);
      if (action.kind === 'stop') break;
      // A writer's share of the ceiling, so WRITERS writers together stay under MAX_TOTAL_ROWS.
      const canWrite = config.seedRows + (state.written + rows) * config.writers <= config.maxTotalRows;
      if (action.kind === 'wait' || !canWrite) {
        sleep(WAIT_S);
        continue;
      }
      const tags = { band: bandTag(update.slot), writer: 'bulk' };
      const body = upsertBody(data.seed, firstId, rows, config.dims, {
        schema: false,
        disableBackpressure: action.disableBackpressure,
      });
      const sentAt = Date.now();
      const res = client.write(data.namespace, body, tags);
      if (res.status === 200) {
        writeAck.add(Date.now() - sentAt, tags);
        state.sinceReading += rows * rowBytes(config.dims);
        state.written += rows;
        rowsWritten.add(rows, { band: tags.band });
        return;
      }
      writeErrors.add(1, { writer: 'bulk', status: String(res.status) });
      sleep(Math.min(2, (res.retryAfterMs ?? 500) / 1000));
    }
    // The bands are over: idle until the scenario's end (the probes are still being read) rather than spin.
    sleep(1);
  };
}

/** Gauges at a band's window edges: `start` once (first reading inside the window), `end` on every later one. */
function recordSnapshots(vu: WriterVu, slot: MachineSlot, reading: MetadataReading): void {
  if (!slot.window || slot.phase === null) return;
  const tags = { band: BANDS[slot.phase] };
  windowStart.add(slot.window.start, tags);
  windowEnd.add(slot.window.end, tags);
  if (reading.time < slot.window.start || reading.time >= slot.window.end) return;
  const edges = vu.started.has(slot.phase) ? (['end'] as const) : (['start', 'end'] as const);
  vu.started.add(slot.phase);
  for (const edge of edges) {
    snapshotUnindexed.add(reading.unindexedBytes, { ...tags, edge });
    snapshotTime.add(reading.time, { ...tags, edge });
  }
}
