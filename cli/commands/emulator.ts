// `bench emulator`: flags -> config -> listen; prints the base URL; clean shutdown on signals.
import {
  ConfigError,
  isLoopbackHost,
  parseFlags,
  type RunningEmulator,
  startLocalEmulator,
  USAGE,
} from '../../emulator';

/** Exit status for bad flags (as for every bench command). */
const EXIT_USAGE = 2;

export async function emulatorCommand(argv: string[]): Promise<number> {
  let config: ReturnType<typeof parseFlags>;
  try {
    config = parseFlags(argv);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`bench emulator: ${error.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (config === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!isLoopbackHost(config.host))
    process.stderr.write(
      `bench emulator: WARNING: listening on ${config.host}; anyone who can reach it can read and write namespaces${config.apiKey ? '' : ' (no --api-key set)'}\n`,
    );
  let emulator: RunningEmulator;
  try {
    emulator = await startLocalEmulator(config);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${config.port} on ${config.host} is in use; pick another with --port (0 = any free port)`
        : code === 'EACCES'
          ? `no permission to listen on ${config.host}:${config.port}`
          : (error as Error).message;
    process.stderr.write(`bench emulator: cannot start: ${reason}\n`);
    return 1;
  }
  process.stdout.write(`${emulator.url}\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  process.stderr.write(`bench emulator: ${signal}, shutting down\n`);
  return closeWithin(emulator.close(), SHUTDOWN_LIMIT_MS);
}

/** Longest wait for in-flight writes and engine threads at shutdown. */
const SHUTDOWN_LIMIT_MS = 30_000;

/**
 * Shutdown awaits work parked on unref'd handles (the indexer's pacing sleep, idle engine threads); with the server
 * closed nothing else keeps the event loop alive, and Node would exit 13 with the close unsettled. A ref'd timer
 * holds the loop open until the close settles, and bounds it.
 */
async function closeWithin(closing: Promise<void>, limitMs: number): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), limitMs);
  });
  try {
    if ((await Promise.race([closing, limit])) === 'late') {
      process.stderr.write(`bench emulator: shutdown did not finish within ${limitMs / 1000} s; exiting\n`);
      return 1;
    }
    return 0;
  } finally {
    clearTimeout(timer);
  }
}
