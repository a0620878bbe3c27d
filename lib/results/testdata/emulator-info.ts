// What a scaled local emulator reports at GET /_emulator/settings, for both experiments' result fixtures.
import type { EmulatorInfo } from '../../emulator-info';

export const FIXTURE_EMULATOR: EmulatorInfo = {
  version: '0.1.0',
  commit: 'abc1234',
  dirty: false,
  settings: {
    backlog_limit_bytes: 6 * 2 ** 20,
    eventual_tail_limit_bytes: 512 * 2 ** 10,
    index_bytes_per_second: 512 * 2 ** 10,
    max_body_bytes: 512 * 2 ** 20,
    max_inflight_bytes: 2 ** 30,
    query_slots: 16,
    query_wait_ms: 800,
    durable: false,
    api_key_required: false,
  },
  flags: [
    '--backlog-limit',
    '6291456',
    '--eventual-tail-limit',
    '524288',
    '--index-throughput',
    '524288',
    '--max-inflight-bytes',
    '1073741824',
  ],
};
