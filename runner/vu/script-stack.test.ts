import { describe, expect, it } from 'vitest';
import { scriptStack } from './script-stack';

describe('scriptStack', () => {
  it("keeps the message and the script's frames, drops the runner's and Node's", () => {
    const error = new Error('boom');
    error.stack = [
      'Error: boom',
      '    at fail (file:///work/main/dist/vu.worker.js:2552:11)',
      '    at Object.query (/work/main/scenarios/backlog.ts:9:18)',
      '    at runIteration (file:///work/main/dist/vu.worker.js:2995:18)',
      '    at listOnTimeout (node:internal/timers:581:17)',
      '    at [nodejs.internal.kHybridDispatch] (node:internal/event_target:831:20)',
    ].join('\n');
    expect(scriptStack(error)).toBe(
      'Error: boom\n    at Object.query (/work/main/scenarios/backlog.ts:9:18)',
    );
  });
});
