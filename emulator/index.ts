// The emulator's public entry: what the `bench` command (cli/) and the launcher call. Everything else in emulator/
// is internal to it.
import type { EmulatorConfig } from './config';
import { type RunningEmulator, startEmulator } from './server';
import { createVectorColumn } from './vector/index';

export { ConfigError, type EmulatorConfig, isLoopbackHost, parseFlags, USAGE } from './config';
export type { RunningEmulator } from './server';

/** Starts an emulator with bench's vector engine: listening once the promise resolves. */
export function startLocalEmulator(config: EmulatorConfig): Promise<RunningEmulator> {
  return startEmulator(config, (spec) => createVectorColumn(spec));
}
