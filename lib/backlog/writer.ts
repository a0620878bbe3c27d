// The writer scenario's iteration: waits until the phase machine wants a write, then writes one batch of seeded
// rows (ids from exec.scenario.iterationInTest, unique across instances; never more than MAX_TOTAL_ROWS rows). It also
// records the backlog at every cell's window edges for the result files, and every poll and acknowledged batch in the
// time series (lib/backlog/series.ts).
import { sleep } from 'k6';
import exec from 'k6/execution';
import { MetadataPoller, type MetadataReading } from '../metadata-poll';
import { recordPoll } from '../series-metrics';
import { StatusLines } from '../status-lines';
import { bucketTag, SERIES_TAG, type SeriesClock } from '../time-series';
import { type TurbopufferClient, upsertBody } from '../turbopuffer-client';
import { rowBytes } from '../vectors';
import type { BacklogConfig } from './config';
import {
  backlogBytes,
  rowsWritten,
  snapshotRows,
  snapshotTime,
  snapshotUnindexed,
  windowEnd,
  windowStart,
  writeErrors,
} from './metrics';
import { PhaseTracker } from './phase-tracker';
import {
  gatesOf,
  phaseTag,
  type Slot,
  scenarioDurationMs,
  scheduleOf,
  TICK_MS,
  writerAction,
} from './phases';
import { backlogProgressLine, progressEvent } from './progress';
import { backlogClock } from './series';
import type { SetupData } from './setup-data';

/** How often a waiting writer looks again (metadata itself refreshes once a second). */
const WAIT_S = 0.2;

interface WriterVu {
  tracker: PhaseTracker;
  /** Bytes this VU had acknowledged since its newest reading: the backlog estimate is reading + this. */
  sinceReading: number;
  /** Cells whose start snapshot this VU already recorded. */
  started: Set<string>;
  /** Rows this VU had acknowledged. */
  written: number;
  writeErrors: number;
  clock: SeriesClock;
  /** Progress lines: only on the VU that ran the scenario's first iteration (one in the whole test). */
  status: StatusLines | undefined;
}

export function makeWriter(config: BacklogConfig, client: TurbopufferClient): (data: SetupData) => void {
  const batchRows = config.writeBatchRows;
  const batchBytes = batchRows * rowBytes(config.dims);
  const gates = gatesOf(config);
  let vu: WriterVu | undefined;

  return (data) => {
    vu ??= {
      tracker: new PhaseTracker(
        data.t0,
        scheduleOf(config),
        gates,
        new MetadataPoller(() => client.metadata(data.namespace, { role: 'writer' }), TICK_MS),
      ),
      sinceReading: 0,
      started: new Set(),
      written: 0,
      writeErrors: 0,
      clock: backlogClock(config, data.t0),
      status: exec.scenario.iterationInTest === 0 ? new StatusLines() : undefined,
    };
    const state = vu;
    // iterationInTest is unique across instances but not dense under execution segments (a segment's iterations
    // are every Nth number), so the ceiling is a budget per writer VU: WRITERS equal shares of the rows above the seed.
    const firstId = config.seedRows + exec.scenario.iterationInTest * batchRows;
    const canWrite = config.seedRows + (state.written + batchRows) * config.writers <= config.maxTotalRows;
    const deadline = data.t0 + scenarioDurationMs(scheduleOf(config));
    let body: ReturnType<typeof upsertBody> | undefined;

    while (Date.now() < deadline) {
      const update = state.tracker.update(Date.now(), true);
      if (update.fresh && update.reading) {
        state.sinceReading = 0;
        backlogBytes.add(update.reading.unindexedBytes, { phase: phaseTag(update.slot) });
        recordPoll(state.clock, update.reading);
        recordSnapshots(state, update.slot, update.reading);
      }
      state.status?.offer(Date.now(), progressEvent(update.slot), () =>
        backlogProgressLine({
          slot: update.slot,
          now: Date.now(),
          unindexedBytes: update.reading?.unindexedBytes,
          gates,
          waitDeadline: state.tracker.waitDeadline(),
          scenariosEnd: deadline,
          rowsWritten: state.written,
          writeErrors: state.writeErrors,
        }),
      );
      const estimate = (update.reading?.unindexedBytes ?? Number.POSITIVE_INFINITY) + state.sinceReading;
      const action = writerAction(update.slot, estimate, batchBytes, gates);
      if (action.kind === 'stop') {
        sleep(1);
        return;
      }
      if (action.kind === 'wait' || !canWrite) {
        sleep(WAIT_S);
        continue;
      }
      const disableBackpressure = action.disableBackpressure;
      if (!body || body.disable_backpressure !== (disableBackpressure || undefined))
        body = upsertBody(data.seed, firstId, batchRows, config.dims, { schema: false, disableBackpressure });
      const res = client.write(data.namespace, body, { phase: phaseTag(update.slot) });
      if (res.status === 200) {
        state.sinceReading += batchBytes;
        state.written += batchRows;
        rowsWritten.add(batchRows, {
          phase: phaseTag(update.slot),
          [SERIES_TAG]: bucketTag(state.clock, Date.now()),
        });
        return;
      }
      // Same ids again on the next attempt, so a retried batch never spends more of MAX_TOTAL_ROWS.
      writeErrors.add(1, { status: String(res.status) });
      state.writeErrors++;
      sleep(Math.min(2, (res.retryAfterMs ?? 500) / 1000));
    }
    // Past the schedule (an instance whose scenarios started after t0 gets there before its scenario ends): idle
    // until the end, as 'stop' does, rather than spin empty iterations (one such loop wrote 4.9 GB of samples).
    sleep(1);
  };
}

/** Gauges at the window edges: `start` once (first reading inside the window), `end` on every later one. */
function recordSnapshots(vu: WriterVu, slot: Slot, reading: MetadataReading): void {
  if (!slot.window || !slot.phase || !slot.consistency) return;
  const tags = { phase: slot.phase, consistency: slot.consistency };
  const cell = `${slot.phase}/${slot.consistency}`;
  windowStart.add(slot.window.start, tags);
  windowEnd.add(slot.window.end, tags);
  if (reading.time < slot.window.start || reading.time >= slot.window.end) return;
  const edges = vu.started.has(cell) ? (['end'] as const) : (['start', 'end'] as const);
  vu.started.add(cell);
  for (const edge of edges) {
    snapshotUnindexed.add(reading.unindexedBytes, { ...tags, edge });
    snapshotRows.add(reading.approxRowCount ?? 0, { ...tags, edge });
    snapshotTime.add(reading.time, { ...tags, edge });
  }
}
