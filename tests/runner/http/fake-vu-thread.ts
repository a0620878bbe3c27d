// A VU thread for k6/http tests before (and apart from) the runner core: a fake ModuleHost that records samples,
// data counts and logs, and runs JavaScript snippets the test sends with the k6/http module in scope.
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { SampleInput } from '../../../runner/metrics/sample';
import { createHttpModule } from '../../../runner/modules/http';
import {
  HostedBlockingError,
  type HttpModuleOptions,
  type ModuleHost,
  SIGNAL_INTERRUPT,
} from '../../../runner/modules/module-host';

export interface FakeVuData {
  vuId: number;
  port: MessagePort;
  signal: Int32Array;
  httpOptions: HttpModuleOptions;
  tags: Record<string, string>;
}

/** Test -> VU thread. */
export type FakeVuCommand =
  | { t: 'run'; id: number; code: string; async: boolean }
  | { t: 'iterationStart' }
  | { t: 'iterationEnd' }
  | { t: 'init'; value: boolean };

/** VU thread -> test. */
export interface FakeVuResult {
  t: 'result';
  id: number;
  value?: unknown;
  error?: string;
  samples: SampleInput[];
  data: { sent: number; received: number };
  logs: Array<{ level: string; message: string; fields?: Record<string, string> }>;
}

const data = workerData as FakeVuData;
const parent = parentPort as NonNullable<typeof parentPort>;
let samples: SampleInput[] = [];
let logs: FakeVuResult['logs'] = [];
let sent = 0;
let received = 0;
let init = false;
const starts: Array<() => void> = [];
const ends: Array<() => void> = [];

const host: ModuleHost = {
  vuId: data.vuId,
  inInitContext: () => init,
  httpOptions: data.httpOptions,
  tags: () => data.tags,
  metadata: () => ({}),
  emit: (s) => {
    samples.push(...s);
  },
  countData: (s, r) => {
    sent += s;
    received += r;
  },
  log: (level, message, fields) => {
    logs.push(fields ? { level, message, fields } : { level, message });
  },
  signal: data.signal,
  throwIfInterrupted: () => {
    if (Atomics.load(data.signal, SIGNAL_INTERRUPT) !== 0) throw new Error('INTERRUPTED');
  },
  httpPort: data.port,
  track: (p) => p,
  onIterationStart: (cb) => starts.push(cb),
  onIterationEnd: (cb) => ends.push(cb),
  hosted: false,
  awaitsBlocking: false,
  blockingError: (call) => new HostedBlockingError(call),
};

const http = createHttpModule(host);

function flush(id: number, outcome: { value?: unknown; error?: string }): void {
  const result: FakeVuResult = { t: 'result', id, ...outcome, samples, data: { sent, received }, logs };
  samples = [];
  logs = [];
  sent = 0;
  received = 0;
  parent.postMessage(JSON.parse(JSON.stringify(result)));
}

parent.on('message', async (command: FakeVuCommand) => {
  if (command.t === 'iterationStart') for (const cb of starts) cb();
  else if (command.t === 'iterationEnd') for (const cb of ends) cb();
  else if (command.t === 'init') init = command.value;
  else if (command.t === 'run') {
    try {
      const fn = new Function(
        'http',
        `return (${command.async ? 'async ' : ''}() => { ${command.code} })();`,
      );
      const value = await fn(http.default);
      flush(command.id, { value });
    } catch (err) {
      flush(command.id, { error: String((err as Error)?.message ?? err) });
    }
  }
});
parent.postMessage({ t: 'ready' });
